// masked-query.ts: the query values both sides' Sentry masks beyond its own sensitive names (token, password,
// session…): an OAuth `code` and `state`, an `email` address, a signed URL's `sig`, a one-time `otp`, an OpenID
// `nonce`. Sentry matches them as it matches its own, within a name (`signature`, `zipcode`, `statement`): a
// value too many masked is a lesser harm than a secret sent.
export const MASKED_QUERY_NAMES = ["code", "email", "sig", "state", "otp", "nonce"];
