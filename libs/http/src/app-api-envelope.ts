/** The app API's success envelope: `{"status":"ok","results":…}`. */
export const ok = <T>(results: T) => ({ status: 'ok' as const, results });
