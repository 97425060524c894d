/** Policy of the console page: its own scripts, styles and requests only; never framed. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The console's HTML: an empty shell that `console.js` fills; it holds no data. */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc dev console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__console/assets/console.css">
<script defer src="/__console/assets/console.js"></script>
</head>
<body>
<noscript>The svc dev console needs JavaScript.</noscript>
<main id="console" aria-busy="true"></main>
</body>
</html>
`;
