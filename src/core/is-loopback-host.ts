/**
 * Whether binding `host` keeps the server reachable from this machine only: `localhost`,
 * `::1` and all of 127.0.0.0/8. Anything else (`0.0.0.0`, a LAN address) exposes it.
 *
 * @example
 * isLoopbackHost('127.0.0.1') // true
 * isLoopbackHost('0.0.0.0') // false
 */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
