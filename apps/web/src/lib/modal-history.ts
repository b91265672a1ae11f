/**
 * The browser's back button closes the topmost open modal instead of leaving the page, as in a native wallet app.
 * Each open modal that can be closed owns one history entry, pushed when it opens (same URL, the router's state
 * kept); back pops that entry and closes the modal on top. A modal closed by its own button, the mask, Escape or its
 * form takes its entry back — a step back in the history — unless a navigation happened meanwhile: the router moved
 * to another entry, or the page started to leave (a link to another site such as Phantom's, a wallet app opened by
 * its URL, a reload), which that step back would cancel. The entry is then left behind, a harmless step back to the
 * same page. Escape closes the topmost modal only.
 */

interface Entry {
  id: string
  /** Closes the modal; false when it cannot be closed now (e.g. while its payment runs). */
  close: () => boolean
}

const MARK = 'solpledgeModal'
const stack: Entry[] = []
/** Entries whose modal closed in this task: taken back together once it ends (or kept if the modal reopens). */
const leaving = new Set<string>()
/** Pops of our own history.go that are not the user's back button. */
let ownPops = 0
let listening = false
/**
 * A navigation away from the page has started (it fires synchronously with `location.href = …`): no entry is taken
 * back until the page is seen again (the navigation did not replace it: a wallet's app opened instead, a download).
 */
let leavingPage = false

interface NavigateEventLike extends Event {
  destination: { sameDocument: boolean }
}

/**
 * Notices a navigation away as it starts: the Navigation API's navigate event (Chromium, Safari 26.2, Firefox 147),
 * else beforeunload. Both fire while `location.href = …` runs, before the step back of a closing modal.
 */
function watchNavigations() {
  const navigation = (window as { navigation?: EventTarget }).navigation
  if (navigation)
    navigation.addEventListener('navigate', (event) => {
      if (!(event as NavigateEventLike).destination.sameDocument) leavingPage = true
    })
  else window.addEventListener('beforeunload', () => (leavingPage = true))
  const stayed = () => {
    if (document.visibilityState === 'visible') leavingPage = false
  }
  document.addEventListener('visibilitychange', stayed)
  window.addEventListener('pageshow', stayed)
}

const markedState = (id: string) => ({ ...(history.state ?? {}), [MARK]: id })
const currentMark = () => (history.state as Record<string, unknown> | null)?.[MARK]

function onPopState() {
  if (ownPops > 0) {
    ownPops--
    return
  }
  const top = stack.at(-1)
  if (!top) return
  // Back popped the top modal's entry: close it, or put the entry back when it cannot close now.
  if (top.close()) stack.pop()
  else history.pushState(markedState(top.id), '')
}

function takeBackLeaving() {
  if (leaving.size === 0) return
  const mark = currentMark()
  const ours = typeof mark === 'string' && leaving.has(mark)
  const count = leaving.size
  leaving.clear()
  if (!ours || leavingPage) return
  ownPops++
  history.go(-count)
}

/** A modal opened: it gets a history entry (kept if the same modal only remounted within this task). */
export function openModalEntry(id: string, close: () => boolean) {
  if (!listening) {
    window.addEventListener('popstate', onPopState)
    watchNavigations()
    listening = true
  }
  // The page is still here: whatever navigation started before did not replace it.
  leavingPage = false
  stack.push({ id, close })
  if (leaving.delete(id)) return
  history.pushState(markedState(id), '')
}

/** A modal closed or unmounted: its entry goes back at the end of the task, unless back already took it. */
export function closeModalEntry(id: string) {
  const index = stack.findIndex((entry) => entry.id === id)
  if (index < 0) return
  stack.splice(index, 1)
  leaving.add(id)
  setTimeout(takeBackLeaving)
}

/** Whether no other modal's entry lies over this one (Escape closes the topmost modal only). */
export function isTopModal(id: string) {
  const top = stack.at(-1)
  return top === undefined || top.id === id
}
