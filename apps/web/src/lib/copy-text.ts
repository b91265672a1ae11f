/** The keyboard shortcut that copies on this platform, for the manual-copy prompt. */
export function copyShortcut(platform: string = globalThis.navigator?.platform ?? '') {
  return /mac|iphone|ipad|ipod/i.test(platform) ? '⌘+C' : 'Ctrl+C'
}

export interface CopyEnvironment {
  clipboard?: { writeText: (text: string) => Promise<void> } | undefined
  /** Shows the text selected in a browser prompt, so that the user can copy it by hand. */
  prompt: (message: string, text: string) => unknown
}

const browser = (): CopyEnvironment => ({
  clipboard: globalThis.navigator?.clipboard,
  prompt: (message, text) => window.prompt(message, text),
})

/**
 * Copies `text` to the clipboard. When the clipboard is missing or refuses (an insecure page, a denied permission), it
 * shows a browser prompt holding the text with `promptMessage` (which names the copy shortcut) and resolves false; the
 * caller then says 'Copy Failed, Please Copy Manually'.
 */
export async function copyText(text: string, promptMessage: string, env: CopyEnvironment = browser()) {
  try {
    if (!env.clipboard) throw new Error('no clipboard')
    await env.clipboard.writeText(text)
    return true
  } catch {
    env.prompt(promptMessage, text)
    return false
  }
}
