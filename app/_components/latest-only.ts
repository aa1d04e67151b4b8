/**
 * Calls of an async loader where only the latest call's answer counts. A list that reloads as the
 * user types (the admin's user search) sends one request per change; on a busy database the answer
 * to an earlier one (the unfiltered first load) can arrive after a later one and overwrite it,
 * leaving a filtered field above an unfiltered list. An answer that is no longer the latest comes
 * back as `stale`, its error too: a newer call decides what is shown.
 */
export function latestOnly(): <T>(load: () => Promise<T>) => Promise<{ stale: true } | { stale: false; value: T }> {
  let latest = 0;
  return async (load) => {
    const call = ++latest;
    try {
      const value = await load();
      return call === latest ? { stale: false, value } : { stale: true };
    } catch (error) {
      if (call !== latest) return { stale: true };
      throw error;
    }
  };
}
