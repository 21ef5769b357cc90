"""Verify relay-parcels webhooks with the Python standard library only (Python 3.6 or later).

Copy this file into your project, no package needed.

Every delivery carries two signatures; check the Standard Webhooks one:

    webhook-id: <delivery id>            the same on every retry: process each id once
    webhook-timestamp: <unix seconds>    when this attempt was sent
    webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>"> [v1,<...> while we rotate your secret]
    X-Relay-Signature: sha256=<hex HMAC-SHA256 of the raw body>   (older scheme: body only, replayable)

Flask:

    from verify_webhook import parse_standard_webhook

    @app.post("/hooks/relay")
    def relay_hook():
        event = parse_standard_webhook(request.get_data(), request.headers, os.environ["RELAY_WEBHOOK_SECRET"])
        if event is None:
            return "", 401
        # process event once per request.headers["webhook-id"], then answer 2xx within 15 seconds
        return "", 204

Django: parse_standard_webhook(request.body, request.headers, secret). Always pass the raw body as
received: a body parsed and serialised again no longer matches its signature.

Give the secret exactly as you set it or as the back-office generated it (whsec_...). While you
move to a new secret, pass both: [new_secret, old_secret].

Ordering: deliveries may arrive late (retries). Each event carries "occurredAt" (when the status
changed) and "sequence" (per parcel, increasing with each of its events): keep the highest sequence
applied per parcel, and ignore an event whose sequence is not higher.

With the official library instead, see verify_webhook_standardwebhooks.py.
"""

import base64
import binascii
import hashlib
import hmac
import json
import re
import time

TIMESTAMP_TOLERANCE_SECONDS = 300
STANDARD_PREFIX = "whsec_"

VALID = "valid"
INVALID_HEADERS = "invalid_headers"
TIMESTAMP_OUTSIDE_TOLERANCE = "timestamp_outside_tolerance"
NO_MATCHING_SIGNATURE = "no_matching_signature"

# ASCII digits only: Python's \d also matches other scripts' digits, which int() accepts.
_UNIX_SECONDS = re.compile(r"[0-9]{1,15}")
_RELAY_SIGNATURE = re.compile(r"sha256=([0-9a-f]{64})")


def standard_webhook_key(secret):
    """HMAC key of the Standard Webhooks signature: the bytes after whsec_ when the rest is
    canonical base64 (secrets the back-office generates), else the secret's own UTF-8 bytes (a
    secret you chose)."""
    if secret.startswith(STANDARD_PREFIX):
        encoded = secret[len(STANDARD_PREFIX):]
        try:
            key = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            key = b""
        if key and base64.b64encode(key).decode("ascii") == encoded:
            return key
    return secret.encode("utf-8")


def standard_webhooks_secret(secret):
    """Your secret in the form the official Standard Webhooks libraries expect (whsec_...)."""
    return STANDARD_PREFIX + base64.b64encode(standard_webhook_key(secret)).decode("ascii")


def _as_bytes(raw_body):
    return raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)


def _secret_list(secrets):
    items = [secrets] if isinstance(secrets, str) else list(secrets)
    return [s for s in items if isinstance(s, str) and s]


def _header(headers, name):
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def check_standard_webhook(raw_body, headers, secrets, now=None, tolerance=TIMESTAMP_TOLERANCE_SECONDS):
    """One of VALID, INVALID_HEADERS, TIMESTAMP_OUTSIDE_TOLERANCE, NO_MATCHING_SIGNATURE.

    raw_body: the bytes received (str is taken as UTF-8); headers: any mapping, names in any case;
    secrets: a string, or a list of them while you rotate; now: unix seconds, default the clock.
    """
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not signatures or not timestamp or not _UNIX_SECONDS.fullmatch(timestamp):
        return INVALID_HEADERS
    current = int(time.time()) if now is None else int(now)
    if abs(current - int(timestamp)) > tolerance:
        return TIMESTAMP_OUTSIDE_TOLERANCE
    signed = "{}.{}.".format(msg_id, timestamp).encode("utf-8") + _as_bytes(raw_body)
    given = [entry[3:].encode("utf-8", "replace") for entry in signatures.split(" ") if entry.startswith("v1,")]
    valid = False
    for secret in _secret_list(secrets):
        expected = base64.b64encode(hmac.new(standard_webhook_key(secret), signed, hashlib.sha256).digest())
        for signature in given:
            # Constant time: how much of a forged signature matches must not show in the timing.
            if hmac.compare_digest(expected, signature):
                valid = True
    return VALID if valid else NO_MATCHING_SIGNATURE


def verify_standard_webhook(raw_body, headers, secrets, now=None):
    return check_standard_webhook(raw_body, headers, secrets, now) == VALID


def parse_standard_webhook(raw_body, headers, secrets, now=None):
    """The event as a dict when the delivery is genuine and fresh; None otherwise."""
    if not verify_standard_webhook(raw_body, headers, secrets, now):
        return None
    try:
        event = json.loads(_as_bytes(raw_body).decode("utf-8"))
    except ValueError:
        return None
    return event if isinstance(event, dict) and isinstance(event.get("type"), str) else None


def verify_relay_signature(raw_body, signature_header, secrets):
    """The older check, on X-Relay-Signature only: it covers the body, not the timestamp, so a
    captured delivery can be replayed. Prefer verify_standard_webhook."""
    if not isinstance(signature_header, str):
        return False
    match = _RELAY_SIGNATURE.fullmatch(signature_header.strip().lower())
    if match is None:
        return False
    given = match.group(1).encode("ascii")
    valid = False
    for secret in _secret_list(secrets):
        expected = hmac.new(secret.encode("utf-8"), _as_bytes(raw_body), hashlib.sha256).hexdigest().encode("ascii")
        if hmac.compare_digest(expected, given):
            valid = True
    return valid
