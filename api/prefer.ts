/**
 * The `wait` preference of RFC 7240's Prefer header, in seconds. Preferences are comma-separated and their
 * names compared without case; only a preference's first instance counts, and one the server cannot read
 * is ignored (RFC 7240, section 2), as an absent one is. The caller caps the value.
 */
export function preferredWaitSeconds(prefer: string): number | undefined {
  for (const preference of prefer.split(',')) {
    const [name, value] = preference
      .split(';')[0]
      .split('=')
      .map((part) => part.trim());
    if (name.toLowerCase() !== 'wait') continue;
    const seconds = value?.replace(/^"(.*)"$/, '$1');
    return seconds !== undefined && /^\d+$/.test(seconds) ? Number(seconds) : undefined;
  }
  return undefined;
}
