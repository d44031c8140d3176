// The API, called with the key the user pasted: sent as a Bearer header, kept in this tab's
// sessionStorage, never in a URL. Paths are relative to the page (/ui/ -> ../v1/...), so the page
// works wherever the service is mounted.

const KEY = 'reverie.explorer.key';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const key = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  forget: () => sessionStorage.removeItem(KEY),
};

function url(path, params) {
  const target = new URL(`../v1/${path}`, document.baseURI);
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== '') target.searchParams.set(name, String(value));
  }
  return target;
}

async function call(method, path, { params, body } = {}) {
  const secret = key.get();
  if (!secret) throw new ApiError(401, 'unauthorized', 'paste an API key first');
  const headers = { Authorization: `Bearer ${secret}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url(path, params), {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer',
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: 'http_error', message: `HTTP ${response.status}` };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

const get = (path, params) => call('GET', path, { params });
const post = (path, body) => call('POST', path, { body });
const segment = (id) => encodeURIComponent(id);

export const api = {
  whoami: () => get('whoami'),
  agents: () => get('agents'),
  graph: (project) => get('graph', { project, current: true, layout: true }),
  map: (project) => get('map', { project }),
  note: (id) => get(`notes/${segment(id)}`),
  history: (id) => get(`notes/${segment(id)}/history`),
  event: (id) => get(`events/${segment(id)}`),
  batches: (project) => get('batches', { project }),
  rollback: (id) => post(`batches/${segment(id)}/rollback`, {}),
  review: (project, status) => get('review', { project, status }),
  decide: (id, decision, reason) => post(`review/${segment(id)}`, { decision, reason }),
};
