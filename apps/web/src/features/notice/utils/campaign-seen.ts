/** localStorage key of a campaign whose pop-up this device has shown and the user closed (docs/product.md#storage-keys). */
export const campaignSeenKey = (id: string) => `solpledge.campaignSeen.${id}`

/** Closed this visit: the fallback when storage is refused (the pop-up then opens once per visit, nothing worse). */
const seenThisVisit = new Set<string>()

/** Whether this campaign's pop-up was shown and closed on this device. */
export function isCampaignSeen(id: string): boolean {
  if (seenThisVisit.has(id)) return true
  try {
    return localStorage.getItem(campaignSeenKey(id)) === '1'
  } catch {
    return false
  }
}

/** The pop-up of this campaign was closed: it does not open again on this device. */
export function markCampaignSeen(id: string) {
  seenThisVisit.add(id)
  try {
    localStorage.setItem(campaignSeenKey(id), '1')
  } catch {
    // Storage refused (private mode, full): seenThisVisit keeps it closed for this visit.
  }
}
