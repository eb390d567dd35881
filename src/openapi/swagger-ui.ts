import type { INestApplication } from '@nestjs/common';
import type { Request, Response } from 'express';
import { dirname, join } from 'node:path';

/** The Swagger UI bundle files the page loads, served from the swagger-ui-dist package. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/**
 * The page's start script. It is a constant: the spec is fetched from `openapi.json` beside the
 * script, never spliced into JavaScript, so no description (a `$` pattern, `</script>`, a quote)
 * can break the page. The validator badge is off: it would send the spec to a third party.
 */
export const SWAGGER_UI_INIT_JS = `(function () {
  var specUrl = new URL('openapi.json', document.currentScript.src).href;
  window.addEventListener('load', function () {
    window.ui = SwaggerUIBundle({
      url: specUrl,
      dom_id: '#swagger-ui',
      deepLinking: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl],
      layout: 'StandaloneLayout',
    });
  });
})();
`;

function page(base: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="${base}swagger-ui.css">
<link rel="icon" type="image/png" href="${base}favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${base}favicon-16x16.png" sizes="16x16">
<style>html{box-sizing:border-box;overflow-y:scroll}*,*:before,*:after{box-sizing:inherit}body{margin:0;background:#fafafa}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}swagger-ui-bundle.js"></script>
<script src="${base}swagger-ui-standalone-preset.js"></script>
<script src="${base}swagger-ui-init.js"></script>
</body>
</html>
`;
}

/**
 * Serves Swagger UI at `/<path>` from our own page and start script; the spec itself is served
 * by SwaggerModule at `/<path>/openapi.json`. Only the listed bundle files are exposed (the
 * package's own index.html and initializer point at a public demo spec).
 */
export function serveSwaggerUi(app: INestApplication, path: string, title: string): void {
  const http = app.getHttpAdapter();
  const assetsDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const html = { bare: page(`./${path}/`, title), slash: page('./', title) };
  const sendPage = (req: Request, res: Response) => {
    res.type('text/html; charset=utf-8').send(req.path.endsWith('/') ? html.slash : html.bare);
  };
  http.get(`/${path}`, sendPage);
  http.get(`/${path}/`, sendPage);
  http.get(`/${path}/index.html`, (_req: Request, res: Response) =>
    res.type('text/html; charset=utf-8').send(html.slash),
  );
  http.get(`/${path}/swagger-ui-init.js`, (_req: Request, res: Response) =>
    res.type('application/javascript; charset=utf-8').send(SWAGGER_UI_INIT_JS),
  );
  for (const [file, type] of Object.entries(ASSETS)) {
    http.get(`/${path}/${file}`, (_req: Request, res: Response) =>
      res.type(type).sendFile(join(assetsDir, file), { maxAge: '1h' }),
    );
  }
}
