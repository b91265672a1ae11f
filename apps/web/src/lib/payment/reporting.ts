/**
 * Intent ids whose transaction this tab is reporting right now, by the payment that sent it or by a resume after a
 * reload (the app may mount twice, e.g. in StrictMode): each is reported once at a time.
 */
export const reporting = new Set<string>()
