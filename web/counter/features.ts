/**
 * What the relay API this app is served with takes, beyond docs/relay-points/guide.md's first
 * version. `occurredAt` in a body is refused (400) by a server that does not know it, so the app
 * sends it only when this says so (issue 27 part A adds it with offline hand-over).
 */
export const SERVER_TAKES_OCCURRED_AT = true;

/** `GET /offline-verifiers` and offline hand-overs (issue 27 part A); without them a hand-over needs the network. */
export const SERVER_HAS_OFFLINE_HANDOVER = true;

/** `POST /parcels/{n}/reminders` (issue 27 part A): the Today screen's reminder button. */
export const SERVER_SENDS_REMINDERS = true;
