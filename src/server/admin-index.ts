import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-io.js';
import type { ServerModule } from './module.js';
import { type AdminRouteInfo, describeRoutes } from './route-docs.js';
import type { Route } from './router.js';

/** The base URL of the examples in the Markdown listing (docs/reference-server.md): `svc serve`'s default. */
export const DOCS_BASE_URL = 'http://127.0.0.1:4010';

/** The rules every admin request meets, stated once for the listing in each format. */
export const ADMIN_RULES =
  'Served on loopback only, no key. Changes (POST, DELETE) need Content-Type: application/json and, ' +
  "when an Origin header is sent, the server's own origin (else 415/403, nothing changes). A Host " +
  'other than 127.0.0.1, localhost or [::1] with the port (or the --host given) is refused with 403.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(routes: AdminRouteInfo[]): string {
  const rows = routes.map(
    (r) =>
      `<tr><td><code>${escapeHtml(`${r.method} ${r.path}`)}</code></td><td>${escapeHtml(r.summary)}` +
      `${r.query ? `<br>query: <code>${escapeHtml(r.query)}</code>` : ''}` +
      `${r.body ? `<br>body: <code>${escapeHtml(r.body)}</code>` : ''}` +
      `<br>answers: <code>${escapeHtml(r.returns)}</code><pre>${escapeHtml(r.curl)}</pre></td></tr>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc reference server: admin API</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:2rem;max-width:75rem}td{vertical-align:top;padding:.4rem;border-top:1px solid #ccc}pre{white-space:pre-wrap;background:#f4f4f4;padding:.3rem}</style></head>
<body><h1>Admin API</h1><p>${escapeHtml(ADMIN_RULES)}</p><p>JSON: <code>curl ${escapeHtml(DOCS_BASE_URL)}/__admin</code>. The console: <a href="/__console">/__console</a>.</p>
<table>${rows.join('\n')}</table></body></html>\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** GitHub's anchor of a route's heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (r: AdminRouteInfo) =>
  `${r.method} ${r.path}`
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

/** The Markdown listing of docs/reference-server.md (generated: `npm run docs:admin`). */
function markdown(routes: AdminRouteInfo[]): string {
  const lines = [
    ADMIN_RULES,
    '',
    '| route | does |',
    '| ----- | ---- |',
    ...routes.map((r) => `| [\`${r.method} ${r.path}\`](#${anchor(r)}) | ${cell(r.summary)} |`),
  ];
  for (const r of routes) {
    lines.push('', `### \`${r.method} ${r.path}\``, '', r.summary);
    if (r.query) lines.push('', `Query: \`${r.query}\``);
    if (r.body) lines.push('', `Body: \`${r.body}\``);
    // `sh replayed`: the doc test parses it; test/server/admin-index.test.ts runs every example.
    lines.push('', `Answers: \`${r.returns}\``, '', '```sh replayed', r.curl, '```');
  }
  return `${lines.join('\n')}\n`;
}

function send(res: ServerResponse, type: string, text: string): void {
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
    // Nothing from the network, no script: the page is text.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

/** `GET /__admin`: every admin route from the route table, as JSON, HTML (browsers) or Markdown. */
export function adminIndexModule(routes: () => readonly Route[]): ServerModule {
  const handle = ({ req, res }: { req: IncomingMessage; res: ServerResponse }) => {
    const accept = req.headers.accept ?? '';
    if (accept.includes('text/markdown'))
      return send(res, 'text/markdown', markdown(describeRoutes(routes(), DOCS_BASE_URL)));
    // The Host was checked against the server's own names before any route ran.
    const listed = describeRoutes(routes(), `http://${req.headers.host}`);
    if (accept.includes('text/html')) return send(res, 'text/html', html(listed));
    sendJson(res, 200, { rules: ADMIN_RULES, routes: listed });
  };
  return {
    routes: [
      {
        method: 'GET',
        pattern: '/__admin',
        doc: {
          summary:
            'This listing: every admin route with its body and an example. JSON by default, an HTML page for a browser (Accept: text/html), Markdown with Accept: text/markdown.',
          returns:
            '200 {rules, routes: [{method, path, summary, query?, body?, bodySchema?, example?, returns, curl}]}',
        },
        handle,
      },
    ],
  };
}
