/**
 * How the shell analysis words a connection bash itself opens (`> /dev/tcp/host/port`), or may open (a
 * redirection to a path only known when it runs): the policy tells these apart from system changes,
 * since a command the person approved runs with the network on.
 */

/** `reaches the network: > /dev/tcp/…` */
export const REACHES_NETWORK = 'reaches the network';
/** `may reach the network (…): > "$f"` */
export const MAY_REACH_NETWORK = 'may reach the network';
