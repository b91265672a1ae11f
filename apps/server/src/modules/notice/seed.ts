// Demo notices and banners for a fresh installation on the local chain (or with SEED_DEMO=1): plain content of this
// project, in the five languages. They are seeded once per database (the 'demo_content' fact in fixed_settings): an
// operator's edits stay, and a deleted item stays deleted. No notice is flagged as the event notice.
import type { Language } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { sanitizeRichText } from '../../lib/rich-text.ts'
import { markOnce } from '../system/index.ts'

type Texts = Record<Language, { title: string; body: string }>

interface DemoNotice {
  slug: string
  /** How long before the first start the notice counts as published, in hours (orders the demo list). */
  ageHours: number
  texts: Texts
}

export const DEMO_NOTICES: DemoNotice[] = [
  {
    slug: 'demo-welcome',
    ageHours: 48,
    texts: {
      en: {
        title: 'Welcome to solpledge',
        body:
          '<p>Welcome! This is a demo notice of this installation. Here is what you can do:</p>' +
          '<ul><li><strong>Staking</strong>: lock tokens for a period and receive output every day.</li>' +
          '<li><strong>Nodes</strong>: buy a node for a power bonus and a share of the daily node pool.</li>' +
          '<li><strong>Team</strong>: invite friends with your wallet address as the invitation code.</li></ul>' +
          '<p>Open <a href="/assets">Assets</a> to top up your balance.</p>',
      },
      zh: {
        title: '欢迎使用 solpledge',
        body:
          '<p>欢迎！这是本站点的演示公告。您可以：</p>' +
          '<ul><li><strong>质押</strong>：锁定代币一段时间，每天获得产出。</li>' +
          '<li><strong>节点</strong>：购买节点，获得算力加成并分享每日节点池。</li>' +
          '<li><strong>团队</strong>：以您的钱包地址作为邀请码邀请好友。</li></ul>' +
          '<p>打开<a href="/assets">资产</a>页面为余额充值。</p>',
      },
      ja: {
        title: 'solpledge へようこそ',
        body:
          '<p>ようこそ！これはこのサイトのデモのお知らせです。できること：</p>' +
          '<ul><li><strong>ステーキング</strong>：トークンを一定期間ロックし、毎日アウトプットを受け取ります。</li>' +
          '<li><strong>ノード</strong>：ノードを購入して、パワーボーナスと毎日のノードプールの分配を受け取ります。</li>' +
          '<li><strong>チーム</strong>：ウォレットアドレスを招待コードとして友だちを招待できます。</li></ul>' +
          '<p><a href="/assets">資産</a>を開いて残高をチャージしましょう。</p>',
      },
      ko: {
        title: 'solpledge에 오신 것을 환영합니다',
        body:
          '<p>환영합니다! 이 사이트의 데모 공지입니다. 할 수 있는 일:</p>' +
          '<ul><li><strong>스테이킹</strong>: 토큰을 일정 기간 잠그고 매일 산출을 받습니다.</li>' +
          '<li><strong>노드</strong>: 노드를 구매해 파워 보너스와 일일 노드 풀 배분을 받습니다.</li>' +
          '<li><strong>팀</strong>: 지갑 주소를 초대 코드로 사용해 친구를 초대하세요.</li></ul>' +
          '<p><a href="/assets">자산</a>에서 잔액을 충전하세요.</p>',
      },
      vi: {
        title: 'Chào mừng đến với solpledge',
        body:
          '<p>Xin chào! Đây là thông báo mẫu của trang này. Bạn có thể:</p>' +
          '<ul><li><strong>Staking</strong>: khóa token trong một thời hạn và nhận sản lượng mỗi ngày.</li>' +
          '<li><strong>Node</strong>: mua node để được thưởng sức mạnh và chia phần quỹ node hằng ngày.</li>' +
          '<li><strong>Đội nhóm</strong>: mời bạn bè bằng địa chỉ ví của bạn làm mã mời.</li></ul>' +
          '<p>Mở <a href="/assets">Tài sản</a> để nạp số dư.</p>',
      },
    },
  },
  {
    slug: 'demo-daily-output',
    ageHours: 24,
    texts: {
      en: {
        title: 'How daily output is released',
        body:
          '<p>A stake made today starts producing tomorrow (UTC). Its total output is fixed when you stake and is ' +
          'released in equal daily parts; the last day releases the remainder, so the total is always exact.</p>' +
          '<p>You can follow every release in the <em>staking detail</em>.</p>',
      },
      zh: {
        title: '每日产出如何释放',
        body:
          '<p>今天的质押从明天（UTC）开始产出。总产出在质押时即已确定，并按天等额释放；最后一天释放剩余部分，' +
          '因此总额始终准确。</p><p>您可以在<em>质押详情</em>中查看每一笔释放。</p>',
      },
      ja: {
        title: '毎日のアウトプットの配布について',
        body:
          '<p>今日のステーキングは明日（UTC）からアウトプットを生みます。総アウトプットはステーキング時に確定し、' +
          '毎日均等に配布されます。最終日に残りが配布されるため、合計は常に正確です。</p>' +
          '<p>すべての配布は<em>ステーキング詳細</em>で確認できます。</p>',
      },
      ko: {
        title: '일일 산출 지급 방식',
        body:
          '<p>오늘 스테이킹하면 내일(UTC)부터 산출이 시작됩니다. 총 산출은 스테이킹할 때 정해지며 매일 같은 몫으로 ' +
          '지급되고, 마지막 날에 나머지가 지급되어 합계는 항상 정확합니다.</p>' +
          '<p>모든 지급 내역은 <em>스테이킹 상세</em>에서 확인할 수 있습니다.</p>',
      },
      vi: {
        title: 'Sản lượng hằng ngày được trả như thế nào',
        body:
          '<p>Khoản stake hôm nay bắt đầu sinh sản lượng từ ngày mai (UTC). Tổng sản lượng được cố định khi bạn ' +
          'stake và trả đều mỗi ngày; ngày cuối trả phần còn lại, nên tổng luôn chính xác.</p>' +
          '<p>Bạn có thể theo dõi từng lần trả trong <em>chi tiết staking</em>.</p>',
      },
    },
  },
  {
    slug: 'demo-settlement-time',
    ageHours: 1,
    texts: {
      en: {
        title: 'Daily settlement time',
        body:
          '<p>The daily settlement runs shortly after <strong>00:00 UTC</strong>. The output of the previous day ' +
          'appears in your asset balance soon after.</p>',
      },
      zh: {
        title: '每日结算时间',
        body: '<p>每日结算在 <strong>UTC 00:00</strong> 后不久进行，前一天的产出随后计入您的资产余额。</p>',
      },
      ja: {
        title: '毎日の精算時刻',
        body:
          '<p>毎日の精算は <strong>UTC 00:00</strong> の少し後に行われます。前日のアウトプットはその後まもなく' +
          '資産残高に反映されます。</p>',
      },
      ko: {
        title: '일일 정산 시간',
        body:
          '<p>일일 정산은 <strong>UTC 00:00</strong> 직후에 진행됩니다. 전날의 산출은 곧이어 자산 잔액에 ' +
          '반영됩니다.</p>',
      },
      vi: {
        title: 'Thời gian quyết toán hằng ngày',
        body:
          '<p>Quyết toán hằng ngày chạy ngay sau <strong>00:00 UTC</strong>. Sản lượng của ngày hôm trước sẽ ' +
          'sớm xuất hiện trong số dư tài sản của bạn.</p>',
      },
    },
  },
]

interface DemoBanner {
  slug: string
  sort: number
  link: string
  /** Served by the web app from apps/web/public. */
  imageUrl: string
  titles: Record<Language, string>
}

export const DEMO_BANNERS: DemoBanner[] = [
  {
    slug: 'demo-banner-stake',
    sort: 1,
    link: '/pledge',
    imageUrl: '/banners/stake.svg',
    titles: {
      en: 'Stake and earn every day',
      zh: '质押，每天都有产出',
      ja: 'ステーキングで毎日アウトプット',
      ko: '스테이킹하고 매일 산출 받기',
      vi: 'Stake và nhận sản lượng mỗi ngày',
    },
  },
  {
    slug: 'demo-banner-node',
    sort: 2,
    link: '/node',
    imageUrl: '/banners/node.svg',
    titles: {
      en: 'Own a node, share the pool',
      zh: '拥有节点，分享节点池',
      ja: 'ノードを持ってプールを分かち合う',
      ko: '노드를 보유하고 풀을 나누세요',
      vi: 'Sở hữu node, chia phần quỹ',
    },
  },
  {
    slug: 'demo-banner-team',
    sort: 3,
    link: '/team',
    imageUrl: '/banners/team.svg',
    titles: {
      en: 'Grow your team',
      zh: '壮大您的团队',
      ja: 'チームを育てよう',
      ko: '팀을 키우세요',
      vi: 'Phát triển đội nhóm của bạn',
    },
  },
]

/** Adds the demo notices and home banners once per database; safe when several instances start. */
export async function seedNotices(db: Database): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await markOnce(trx, 'demo_content'))) return
    for (const notice of DEMO_NOTICES) {
      const row = await trx
        .insertInto('notices')
        .values({
          slug: notice.slug,
          published_at: sql<Date>`now() - make_interval(hours => ${notice.ageHours}::int)`,
        })
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!row) continue
      await trx
        .insertInto('notice_translations')
        .values(
          Object.entries(notice.texts).map(([lang, text]) => ({
            notice_id: row.id,
            lang,
            title: text.title,
            body: sanitizeRichText(text.body),
          })),
        )
        .execute()
    }
    for (const banner of DEMO_BANNERS) {
      const row = await trx
        .insertInto('banners')
        .values({ slug: banner.slug, type: 1, sort: banner.sort, link: banner.link })
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!row) continue
      await trx
        .insertInto('banner_translations')
        .values(
          Object.entries(banner.titles).map(([lang, title]) => ({
            banner_id: row.id,
            lang,
            title,
            image_url: banner.imageUrl,
          })),
        )
        .execute()
    }
  })
}
