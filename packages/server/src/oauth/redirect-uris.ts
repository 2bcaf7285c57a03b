import { errors } from 'oidc-provider';

/** The hosts a plain-http redirect URI may name: the person's own machine, where a native app listens (RFC 8252 §7.3). */
const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirect URI may not be registered, beyond what oidc-provider checks itself (a URI,
 * no fragment, http(s) for web apps), or undefined. OAuth 2.1 §2.3.1 and RFC 8252 §7:
 * https; http only on loopback; for native apps also a private-use scheme named after a
 * domain the app controls, in reverse order (`com.example.app:/cb`; web apps get
 * oidc-provider's "web uris" refusal). Never user info: the
 * browser would show a host (`trusted.example@`) that is not where it goes.
 */
function redirectUriProblem(uri: string, native: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined; // oidc-provider names it: "must only contain valid uris"
  }
  if (url.username !== '' || url.password !== '') return 'must not contain user info (user:password@)';
  if (url.protocol === 'http:' && !loopbackHosts.has(url.hostname)) return 'must use https, or http only on loopback (127.0.0.1, [::1], localhost)';
  if (native && url.protocol !== 'http:' && url.protocol !== 'https:' && !url.protocol.slice(0, -1).includes('.')) {
    return 'with a private-use scheme must name a domain the app controls, in reverse order (com.example.app:/callback)';
  }
  return undefined;
}

/**
 * oidc-provider's `extraClientMetadata.validator` for `redirect_uris`, for registered apps and
 * metadata documents alike. The description starts with `redirect_uris`, which makes the
 * error `invalid_redirect_uri` (RFC 7591 §3.2.2).
 */
export function validateRedirectUris(_ctx: unknown, key: string, value: unknown, metadata: { application_type?: unknown }): void {
  if (key !== 'redirect_uris' || !Array.isArray(value)) return;
  for (const uri of value) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri, metadata.application_type === 'native') : undefined;
    if (problem) throw new errors.InvalidClientMetadata(`redirect_uris ${problem}: ${uri}`);
  }
}
