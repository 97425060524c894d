// Whether a text is an IP address as ECS `ip` fields and OCSF `ip` attributes take it: dotted
// IPv4 or IPv6 (read by the URL parser, a Web API, so this runs wherever the mappings run). A
// masked address (`203.0.113.0`) is one; anything else goes to the custom fields instead.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True for an IPv4 address in dotted decimal or an IPv6 address (no zone, no brackets). */
export function isIpAddress(text: unknown): text is string {
  if (typeof text !== 'string' || text.length > 45) return false;
  if (IPV4.test(text)) return true;
  if (!text.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname !== '';
  } catch {
    return false;
  }
}
