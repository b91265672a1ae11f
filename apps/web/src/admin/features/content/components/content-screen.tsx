import { adminApi } from '@solpledge/contract/admin'
import type { AdminBanner, AdminNotice } from '@solpledge/contract/client'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AdminPage, type PagedQuery, PagedTable, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { Tabs } from '@/components/tabs.tsx'
import { useAdminBanners, useAdminNotices, usePublishBanner, usePublishNotice } from '../api/content.ts'
import { BannerEditor } from './banner-editor.tsx'
import { Campaigns } from './campaigns.tsx'
import { NoticeEditor } from './notice-editor.tsx'

type Tab = 'notices' | 'banners' | 'campaigns'
/** What the editor is open on: a new item (null) or an existing one. */
type Editing<T> = { item: T | null } | null

/** The English translation, else the first one: what a list row shows. */
const englishOf = <T extends { lang: string }>(translations: readonly T[]): T | undefined =>
  translations.find((item) => item.lang === 'en') ?? translations[0]

/**
 * Content (docs/admin.md#content): notices and banners in five languages, images, publishing and the event flag; and
 * campaigns (docs/admin.md#campaigns).
 */
export function ContentScreen() {
  const { t } = useTranslation('admin')
  const [tab, setTab] = useState<Tab>('notices')
  return (
    <AdminPage title={t('sections.content')}>
      <Tabs<Tab>
        label={t('sections.content')}
        testId="admin-content-tab"
        value={tab}
        onChange={setTab}
        options={[
          { value: 'notices', label: t('content.notices') },
          { value: 'banners', label: t('content.banners') },
          { value: 'campaigns', label: t('content.campaigns') },
        ]}
      />
      {tab === 'notices' ? <Notices /> : tab === 'banners' ? <Banners /> : <Campaigns />}
    </AdminPage>
  )
}

interface ContentItem {
  id: string
  visible: boolean
}

interface ContentListProps<T extends ContentItem> {
  kind: 'notice' | 'banner'
  pages: { query: PagedQuery; items: readonly T[] }
  canEdit: boolean
  publish: { isPending: boolean; mutate: (body: { id: string; visible: boolean }) => void }
  head: ReactNode
  /** An item's cells before the actions. */
  cells: (item: T) => ReactNode
  editor: (item: T | null, onClose: () => void) => ReactNode
}

/** Notices or banners: a new one, and each one's cells with edit (view without the right) and publish/unpublish. */
function ContentList<T extends ContentItem>({
  kind,
  pages,
  canEdit,
  publish,
  head,
  cells,
  editor,
}: ContentListProps<T>) {
  const { t } = useTranslation('admin')
  const [editing, setEditing] = useState<Editing<T>>(null)
  const { query, items } = pages
  return (
    <>
      <div className="admin-actions">
        <button
          type="button"
          className="admin-button admin-primary"
          data-testid={`admin-${kind}-new`}
          disabled={!canEdit}
          onClick={() => setEditing({ item: null })}
        >
          {kind === 'notice' ? t('content.newNotice') : t('content.newBanner')}
        </button>
      </div>
      <PagedTable
        testId={`admin-${kind}s`}
        query={query}
        count={items.length}
        head={
          <>
            {head}
            <th />
          </>
        }
      >
        {items.map((item) => (
          <tr key={item.id} data-testid={`admin-${kind}-row`} data-visible={item.visible}>
            {cells(item)}
            <td>
              <div className="admin-actions">
                <button type="button" className="admin-button" onClick={() => setEditing({ item })}>
                  {canEdit ? t('content.edit') : t('content.view')}
                </button>
                <button
                  type="button"
                  className={item.visible ? 'admin-button admin-danger' : 'admin-button'}
                  data-testid="admin-publish-toggle"
                  disabled={!canEdit || publish.isPending}
                  onClick={() => publish.mutate({ id: item.id, visible: !item.visible })}
                >
                  {item.visible ? t('content.unpublish') : t('content.publish')}
                </button>
              </div>
            </td>
          </tr>
        ))}
      </PagedTable>
      {editing && editor(editing.item, () => setEditing(null))}
    </>
  )
}

function VisibleBadge({ visible }: { visible: boolean }) {
  const { t } = useTranslation('admin')
  return (
    <span className={visible ? 'badge badge-ok' : 'badge'}>
      {visible ? t('content.published') : t('content.unpublished')}
    </span>
  )
}

function Notices() {
  const { t } = useTranslation('admin')
  return (
    <ContentList<AdminNotice>
      kind="notice"
      pages={useAdminNotices()}
      canEdit={useAllowed(adminApi.adminNoticeSave)}
      publish={usePublishNotice()}
      head={
        <>
          <th>{t('content.titleColumn')}</th>
          <th>{t('content.languages')}</th>
          <th>{t('content.publishedAt')}</th>
          <th>{t('content.state')}</th>
        </>
      }
      cells={(notice) => (
        <>
          <td className="admin-wrap">{englishOf(notice.translations)?.title}</td>
          <td>{notice.translations.map((item) => item.lang).join(' ')}</td>
          <td>
            <Time iso={notice.published_at} />
          </td>
          <td>
            <VisibleBadge visible={notice.visible} />{' '}
            {notice.is_event && <span className="badge badge-wait">{t('content.event')}</span>}
          </td>
        </>
      )}
      editor={(notice, onClose) => <NoticeEditor notice={notice} onClose={onClose} />}
    />
  )
}

function Banners() {
  const { t } = useTranslation('admin')
  return (
    <ContentList<AdminBanner>
      kind="banner"
      pages={useAdminBanners()}
      canEdit={useAllowed(adminApi.adminBannerSave)}
      publish={usePublishBanner()}
      head={
        <>
          <th>{t('content.image')}</th>
          <th>{t('content.titleColumn')}</th>
          <th>{t('content.sort')}</th>
          <th>{t('content.link')}</th>
          <th>{t('content.state')}</th>
        </>
      }
      cells={(banner) => {
        const shown = englishOf(banner.translations)
        return (
          <>
            <td>{shown?.image_url && <img className="admin-image-preview" src={shown.image_url} alt="" />}</td>
            <td className="admin-wrap">{shown?.title}</td>
            <td>{banner.sort}</td>
            <td>{banner.link ?? '—'}</td>
            <td>
              <VisibleBadge visible={banner.visible} />
            </td>
          </>
        )
      }}
      editor={(banner, onClose) => <BannerEditor banner={banner} onClose={onClose} />}
    />
  )
}
