/**
 * RFC 7240's `Prefer: wait=N`: how many seconds the client is willing to wait for a response that would
 * otherwise say "not yet". Preferences are comma-separated, their names compared without case, and one
 * the server cannot read is ignored (RFC 7240, section 2), as an absent one is.
 */
export function preferredWaitSeconds(prefer: string): number | undefined {
  for (const preference of prefer.split(',')) {
    const [name, value] = preference
      .split(';')[0]
      .split('=')
      .map((part) => part.trim());
    if (name.toLowerCase() !== 'wait' || value === undefined) continue;
    const seconds = value.replace(/^"(.*)"$/, '$1');
    if (/^\d{1,9}$/.test(seconds)) return Number(seconds);
  }
  return undefined;
}
