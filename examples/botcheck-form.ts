import { realpathSync } from 'node:fs';
/**
 * A contact form in the browser with the dev server's stand-in widget, and the Express example
 * behind it (multi-stage policy, so `outcome="challenge"` gets the extra-check answer):
 *
 *   node bin/svc.js serve --port 4010
 *   SVC_BASE_URL=http://127.0.0.1:4010 SVC_API_KEY=ak_demo_project npx tsx examples/botcheck-form.ts
 *   open http://127.0.0.1:3000/?outcome=pass   (or fail, bot, challenge, failover, unfinished, expired)
 *
 * Click the widget, then Send: 200 accept, 401 challenge, 403 reject. Watch it at
 * http://127.0.0.1:4010/__console. With the real service, load the real widget script instead.
 */
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import type { RequireHumanOptions } from '../src/adapters/express.js';
import { SvcClient } from '../src/index.js';
import { DEV_OUTCOMES, isDevOutcome } from '../src/testing/index.js';
import { createApp } from './botcheck-express.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The form page: the widget script from the dev server, `<svc-captcha>` inside the form. */
export function formPage(devServerUrl: string, outcome: string): string {
  const server = escapeHtml(devServerUrl.replace(/\/+$/, ''));
  const links = DEV_OUTCOMES.map((o) => `<a href="/?outcome=${o}">${o}</a>`).join(' ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Contact form with the svc stand-in widget</title>
<script src="${server}/__widget.js"></script>
</head>
<body>
<h1>Contact</h1>
<form method="post" action="/contact">
  <p><label>Message <input name="message" value="Hello"></label></p>
  <p><svc-captcha outcome="${escapeHtml(outcome)}"></svc-captcha></p>
  <p><button type="submit">Send</button></p>
</form>
<p>Outcome: ${links}</p>
</body>
</html>
`;
}

/** The Express example's `POST /contact` plus `GET /` serving the form for `?outcome=` (default pass). */
export function createFormApp(
  client: SvcClient,
  devServerUrl: string,
  options: RequireHumanOptions = {},
): Express {
  const app = createApp(client, { policy: { kind: 'multiStage' }, ...options });
  app.get('/', (req, res) => {
    const outcome = isDevOutcome(req.query.outcome) ? req.query.outcome : 'pass';
    res.type('html').send(formPage(devServerUrl, outcome));
  });
  return app;
}

// `SVC_BASE_URL=http://127.0.0.1:4010 SVC_API_KEY=ak_demo_project npx tsx examples/botcheck-form.ts`
// Compared as real paths: the script may be reached through a symbolic link.
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  const port = Number(process.env.PORT ?? 3000);
  const client = SvcClient.fromEnv();
  createFormApp(client, process.env.SVC_BASE_URL ?? 'http://127.0.0.1:4010').listen(port, '127.0.0.1', () => {
    console.info(`contact form on http://127.0.0.1:${port}/?outcome=pass`);
  });
}
