/** Tags and attributes rich text may keep; everything else (scripts, handlers, styles, iframes) is dropped. */
const TAGS = new Set(['P', 'BR', 'B', 'STRONG', 'I', 'EM', 'U', 'S', 'UL', 'OL', 'LI', 'H1', 'H2', 'H3', 'H4', 'BLOCKQUOTE', 'PRE', 'CODE', 'A', 'IMG', 'SPAN', 'DIV', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD']);
const ATTRIBUTES: Record<string, readonly string[]> = { A: ['href', 'title'], IMG: ['src', 'alt', 'title', 'width', 'height'] };
const SAFE_URL = /^(https?:|mailto:|\/(?!\/)|#)/i;

function clean(node: Element): void {
  for (const child of [...node.children]) {
    if (!TAGS.has(child.tagName)) {
      // Unknown wrappers keep their text; dangerous elements go entirely.
      if (['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE'].includes(child.tagName)) child.remove();
      else child.replaceWith(...child.childNodes);
      continue;
    }
    const allowed = ATTRIBUTES[child.tagName] ?? [];
    for (const attribute of [...child.attributes]) {
      const keep = allowed.includes(attribute.name) && (!['href', 'src'].includes(attribute.name) || SAFE_URL.test(attribute.value.trim()));
      if (!keep) child.removeAttribute(attribute.name);
    }
    clean(child);
  }
}

/** Rich text reduced to a safe subset of HTML (the server sanitises again on save). */
export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  // Unwrapping may surface disallowed elements that were nested; repeat until stable.
  for (let before = ''; before !== doc.body.innerHTML; ) {
    before = doc.body.innerHTML;
    clean(doc.body);
  }
  return doc.body.innerHTML;
}
