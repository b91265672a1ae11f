/** localStorage key of a campaign's "Don't show again" (docs/product.md#storage-keys). */
export const campaignHiddenKey = (id: string) => `solpledge.campaignHidden.${id}`

/** Whether the user asked not to see this campaign's pop-up again on this device. */
export function isCampaignHidden(id: string): boolean {
  try {
    return localStorage.getItem(campaignHiddenKey(id)) === '1'
  } catch {
    return false
  }
}

export function hideCampaign(id: string) {
  try {
    localStorage.setItem(campaignHiddenKey(id), '1')
  } catch {
    // Storage refused (private mode, full): the pop-up then shows again on the next visit, nothing worse.
  }
}
