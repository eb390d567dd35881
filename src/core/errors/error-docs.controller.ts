import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from 'src/core/auth/auth.decorators';
import { ERROR_CATALOG, ERROR_CODES } from 'src/core/errors/error-catalog';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** Catalog text is written in Markdown; its `code spans` become <code> elements. */
function renderInlineCode(html: string): string {
  return html.replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Renders the error catalog once; every doc_url points at an anchor on this page. */
export function renderErrorPage(): string {
  const rows = ERROR_CODES.map((code) => {
    const e = ERROR_CATALOG[code];
    return `<section id="${code}"><h2>${code} · ${escapeHtml(e.title)}</h2>
<p><strong>HTTP ${e.status}</strong> · type <code>${e.type}</code></p>
<p>${renderInlineCode(escapeHtml(e.description))}</p></section>`;
  }).join('\n');
  const legacy = `<section id="PRODUCT_NOT_ENABLED"><h2>PRODUCT_NOT_ENABLED</h2>
<p><strong>HTTP 403</strong> · legacy body <code>{"status":"error","code":"PRODUCT_NOT_ENABLED","message":"..."}</code></p>
<p>The add-on product (Market Data under /market-data/*, Cash Management under /cash-management/*) is not enabled
for the tenant. Ask support to enable it.</p></section>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error codes</title>
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}section{border-top:1px solid #ddd;padding:.5rem 0}</style>
</head><body><h1>Error codes</h1>
<p>Every error is <code>{"error":{type, code, message, param, doc_url, request_log_url}}</code>; <code>param</code> names the field at fault.</p>
${rows}
${legacy}
</body></html>`;
}

@ApiExcludeController()
@Public()
@Controller('docs/errors')
export class ErrorDocsController {
  private readonly page = renderErrorPage();

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  page_(): string {
    return this.page;
  }
}
