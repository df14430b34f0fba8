// The viewer reads the open job through the public API only: the same
// calls, paths and paging a script uses. In keys mode the key is asked for
// once and kept in this tab's session storage (never in local storage, so
// it goes when the tab does).

const keyName = 'gusset.apiKey';

/** AuthError is a 401: the page asks for a key and tries again. */
export class AuthError extends Error {}

/** ApiError is any other refusal, with the service's own message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function setKey(key) {
  if (key) sessionStorage.setItem(keyName, key);
  else sessionStorage.removeItem(keyName);
}

export function hasKey() {
  return sessionStorage.getItem(keyName) !== null;
}

/** Api wraps fetch with the key, the base path and the paging headers. */
export class Api {
  constructor(base = '/api/v1') {
    this.base = base;
    this.requests = 0;
  }

  headers() {
    const key = sessionStorage.getItem(keyName);
    return key ? { Authorization: 'Bearer ' + key } : {};
  }

  url(path, params) {
    const u = new URL(this.base + path, window.location.origin);
    for (const [k, v] of Object.entries(params || {})) {
      if (v !== undefined && v !== null && v !== '') u.searchParams.set(k, String(v));
    }
    return u;
  }

  /** get returns the decoded body and the Total-Count header (or -1). */
  async get(path, params) {
    this.requests++;
    const res = await fetch(this.url(path, params), { headers: this.headers() });
    if (res.status === 401) throw new AuthError('this service needs an API key');
    if (!res.ok) {
      let detail = res.statusText;
      try {
        const body = await res.json();
        detail = body.detail || body.title || detail;
      } catch (_) { /* not JSON: keep the status text */ }
      throw new ApiError(res.status, `${path}: ${detail}`);
    }
    const total = res.headers.get('Total-Count');
    return { body: await res.json(), total: total === null ? -1 : Number(total) };
  }

  /**
   * all reads every row of a list or result query in pages of pageSize,
   * several pages at a time once the first has told the total. Result
   * queries answer an envelope; its rows are returned.
   */
  async all(path, params = {}, pageSize = 10000) {
    const rows = (body) => (Array.isArray(body) ? body : body.results || []);
    const first = await this.get(path, { ...params, offset: 0, limit: pageSize });
    const out = rows(first.body);
    if (first.total < 0 || first.total <= out.length) return out;
    const offsets = [];
    for (let off = out.length; off < first.total; off += pageSize) offsets.push(off);
    const pages = new Array(offsets.length);
    let next = 0;
    const worker = async () => {
      while (next < offsets.length) {
        const i = next++;
        pages[i] = rows((await this.get(path, { ...params, offset: offsets[i], limit: pageSize })).body);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    for (const p of pages) for (const r of p) out.push(r);
    return out;
  }
}
