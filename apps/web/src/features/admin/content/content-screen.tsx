import { type AdminBanner, type AdminNotice, api } from '@solpledge/contract'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadMore } from '../../../components/load-more.tsx'
import { Tabs } from '../../../components/tabs.tsx'
import { useAllowed } from '../api/client.ts'
import { AdminPage, ListState, Time } from '../components/ui.tsx'
import { useAdminBanners, useAdminNotices, usePublishBanner, usePublishNotice } from './api.ts'
import { BannerEditor } from './banner-editor.tsx'
import { NoticeEditor } from './notice-editor.tsx'

type Tab = 'notices' | 'banners'
/** What the editor is open on: a new item (null) or an existing one. */
type Editing<T> = { item: T | null } | null

/** The English title, else the first one. */
const titleOf = (translations: readonly { lang: string; title: string }[]) =>
  (translations.find((item) => item.lang === 'en') ?? translations[0])?.title ?? ''

/** Content (issue 7): notices and banners in five languages, with images, publish/unpublish and the event flag. */
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
        ]}
      />
      {tab === 'notices' ? <Notices /> : <Banners />}
    </AdminPage>
  )
}

function PublishButton({ visible, disabled, onToggle }: { visible: boolean; disabled: boolean; onToggle: () => void }) {
  const { t } = useTranslation('admin')
  return (
    <button
      type="button"
      className={visible ? 'admin-button admin-danger' : 'admin-button'}
      data-testid="admin-publish-toggle"
      disabled={disabled}
      onClick={onToggle}
    >
      {visible ? t('content.unpublish') : t('content.publish')}
    </button>
  )
}

function Notices() {
  const { t } = useTranslation('admin')
  const { query, items } = useAdminNotices()
  const canEdit = useAllowed(api.adminNoticeSave)
  const publish = usePublishNotice()
  const [editing, setEditing] = useState<Editing<AdminNotice>>(null)
  return (
    <>
      <div className="admin-actions">
        <button
          type="button"
          className="admin-button admin-primary"
          data-testid="admin-notice-new"
          disabled={!canEdit}
          onClick={() => setEditing({ item: null })}
        >
          {t('content.newNotice')}
        </button>
      </div>
      {items.length === 0 ? (
        <ListState query={query} empty={query.isSuccess} />
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="admin-notices">
            <thead>
              <tr>
                <th>{t('content.titleColumn')}</th>
                <th>{t('content.languages')}</th>
                <th>{t('content.publishedAt')}</th>
                <th>{t('content.state')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((notice) => (
                <tr key={notice.id} data-testid="admin-notice-row" data-visible={notice.visible}>
                  <td className="admin-wrap">{titleOf(notice.translations)}</td>
                  <td>{notice.translations.map((item) => item.lang).join(' ')}</td>
                  <td>
                    <Time iso={notice.published_at} />
                  </td>
                  <td>
                    <span className={notice.visible ? 'badge badge-ok' : 'badge'}>
                      {notice.visible ? t('content.published') : t('content.unpublished')}
                    </span>{' '}
                    {notice.is_event && <span className="badge badge-wait">{t('content.event')}</span>}
                  </td>
                  <td>
                    <div className="admin-actions">
                      <button type="button" className="admin-button" onClick={() => setEditing({ item: notice })}>
                        {canEdit ? t('content.edit') : t('content.view')}
                      </button>
                      <PublishButton
                        visible={notice.visible}
                        disabled={!canEdit || publish.isPending}
                        onToggle={() => publish.mutate({ id: notice.id, visible: !notice.visible })}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {query.hasNextPage && (
        <LoadMore testId="admin-notices-more" loading={query.isFetchingNextPage} onLoad={() => query.fetchNextPage()} />
      )}
      {editing && <NoticeEditor notice={editing.item} onClose={() => setEditing(null)} />}
    </>
  )
}

function Banners() {
  const { t } = useTranslation('admin')
  const { query, items } = useAdminBanners()
  const canEdit = useAllowed(api.adminBannerSave)
  const publish = usePublishBanner()
  const [editing, setEditing] = useState<Editing<AdminBanner>>(null)
  return (
    <>
      <div className="admin-actions">
        <button
          type="button"
          className="admin-button admin-primary"
          data-testid="admin-banner-new"
          disabled={!canEdit}
          onClick={() => setEditing({ item: null })}
        >
          {t('content.newBanner')}
        </button>
      </div>
      {items.length === 0 ? (
        <ListState query={query} empty={query.isSuccess} />
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="admin-banners">
            <thead>
              <tr>
                <th>{t('content.image')}</th>
                <th>{t('content.titleColumn')}</th>
                <th>{t('content.sort')}</th>
                <th>{t('content.link')}</th>
                <th>{t('content.state')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((banner) => {
                const image = (banner.translations.find((item) => item.lang === 'en') ?? banner.translations[0])
                  ?.image_url
                return (
                  <tr key={banner.id} data-testid="admin-banner-row" data-visible={banner.visible}>
                    <td>{image && <img className="admin-image-preview" src={image} alt="" />}</td>
                    <td className="admin-wrap">{titleOf(banner.translations)}</td>
                    <td>{banner.sort}</td>
                    <td>{banner.link ?? '—'}</td>
                    <td>
                      <span className={banner.visible ? 'badge badge-ok' : 'badge'}>
                        {banner.visible ? t('content.published') : t('content.unpublished')}
                      </span>
                    </td>
                    <td>
                      <div className="admin-actions">
                        <button type="button" className="admin-button" onClick={() => setEditing({ item: banner })}>
                          {canEdit ? t('content.edit') : t('content.view')}
                        </button>
                        <PublishButton
                          visible={banner.visible}
                          disabled={!canEdit || publish.isPending}
                          onToggle={() => publish.mutate({ id: banner.id, visible: !banner.visible })}
                        />
                      </div>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {query.hasNextPage && (
        <LoadMore testId="admin-banners-more" loading={query.isFetchingNextPage} onLoad={() => query.fetchNextPage()} />
      )}
      {editing && <BannerEditor banner={editing.item} onClose={() => setEditing(null)} />}
    </>
  )
}
