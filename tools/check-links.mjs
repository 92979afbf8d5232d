#!/usr/bin/env node
// Checks the internal links of the documentation without the network: in Markdown
// (README.md, docs/*.md, packages/*/README.md) and in the generated API reference
// (docs/reference/**/*.html, from `pnpm docs:api`), every relative link must name a file or
// folder that exists and every `#anchor` a heading (GitHub's slugs) or an `id`/`name` in the
// target. External links (http:, https:, mailto:) are counted and not fetched. Links inside
// code blocks and code spans are not links.
// Usage:
//   node tools/check-links.mjs [--reference] [path...]   paths default to the documentation;
//       --reference also requires docs/reference/ (run `pnpm docs:api` first) and checks it
//   node tools/check-links.mjs --self-test               runs the checker on tools/fixtures/links,
//       whose broken links are deliberate, and checks that it finds exactly those
// Exits 1 on a broken link (or a failed self-test).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** GitHub's heading anchors: lower case, punctuation other than `-` and `_` dropped, spaces to `-`, repeats numbered. */
export function slugger() {
  const seen = new Map();
  return (heading) => {
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
      .replace(/<[^>]+>/g, '')
      .trim()
      .toLowerCase();
    const base = text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** The text with fenced code blocks and code spans blanked out (line numbers kept). */
function withoutCode(md) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  return md
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1\2[`~]*[ \t]*$|(?![\s\S]))/gm, blank)
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

function markdownLinks(md) {
  const text = withoutCode(md);
  const links = [];
  const add = (target, index) => links.push({ target: target.trim().replace(/^<|>$/g, ''), index });
  // [text](target "title") and ![alt](src); the text may hold one level of brackets (a badge).
  for (const m of text.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+("[^"]*"|'[^']*'))?\s*\)/g)) add(m[1], m.index);
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) add(m[1], m.index);
  for (const m of text.matchAll(/<(https?:[^>\s]+)>/g)) add(m[1], m.index);
  for (const m of text.matchAll(/\s(?:href|src)\s*=\s*("([^"]*)"|'([^']*)')/g)) add(m[2] ?? m[3], m.index);
  return links;
}

function markdownAnchors(md) {
  const text = withoutCode(md);
  const slug = slugger();
  const anchors = new Set();
  // Headings are found in the text without code, and slugged from the line as written
  // (a code span's words are part of the slug); indented code blocks are not recognised.
  const lineAt = (i) => md.slice(i, md.indexOf('\n', i) < 0 ? md.length : md.indexOf('\n', i));
  for (const m of text.matchAll(/^ {0,3}#{1,6}[ \t]+\S/gm)) anchors.add(slug(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(lineAt(m.index))[1]));
  // Setext headings (a line underlined with === or ---).
  for (const m of text.matchAll(/^(?! {0,3}[-*>|#])[^\n]*\S[^\n]*\n {0,3}(?:=+|-+)[ \t]*$/gm)) anchors.add(slug(lineAt(m.index)));
  for (const m of text.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*"([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

const decodeEntities = (s) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]);

function htmlLinks(html) {
  const links = [];
  const text = html.replace(/<script\b[\s\S]*?<\/script>/gi, (s) => s.replace(/[^\n]/g, ' '));
  for (const m of text.matchAll(/<(?:a|link|img|script|iframe|source)\s[^>]*?\b(?:href|src)\s*=\s*("([^"]*)"|'([^']*)')/gi)) {
    links.push({ target: decodeEntities(m[2] ?? m[3]), index: m.index });
  }
  return links;
}

function htmlAnchors(html) {
  const anchors = new Set();
  for (const m of html.matchAll(/\s(?:id|name)\s*=\s*"([^"]*)"/g)) anchors.add(decodeEntities(m[1]));
  return anchors;
}

const isExternal = (t) => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(t);

/**
 * Checks the links of `files` (absolute paths). `base` is the folder that a link starting
 * with `/` is relative to (the repository root, as on GitHub). Returns the broken links as
 * `{ file, line, target, reason }`, and how many internal and external links were seen.
 */
export function checkLinks(files, base = root) {
  const anchorCache = new Map();
  const anchorsOf = (file) => {
    let a = anchorCache.get(file);
    if (!a) {
      const text = readFileSync(file, 'utf8');
      a = extname(file) === '.md' ? markdownAnchors(text) : htmlAnchors(text);
      anchorCache.set(file, a);
    }
    return a;
  };
  const broken = [];
  let internal = 0;
  let external = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const isHtml = /\.html?$/.test(file);
    const links = isHtml ? htmlLinks(text) : markdownLinks(text);
    for (const { target, index } of links) {
      if (target === '' || target === '#') continue;
      if (isExternal(target)) {
        if (!/^(?:javascript|data):/i.test(target)) external++;
        continue;
      }
      internal++;
      const line = text.slice(0, index).split('\n').length;
      const hash = target.indexOf('#');
      const pathPart = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      const fragment = hash < 0 ? '' : target.slice(hash + 1);
      let path;
      try {
        path = decodeURIComponent(pathPart);
      } catch {
        broken.push({ file, line, target, reason: 'not a valid URL' });
        continue;
      }
      const dest = path === '' ? file : path.startsWith('/') ? join(base, path) : resolve(dirname(file), path);
      if (!existsSync(dest)) {
        broken.push({ file, line, target, reason: `no such file: ${relative(base, dest) || '.'}` });
        continue;
      }
      if (!fragment) continue;
      const ext = extname(dest);
      if (statSync(dest).isDirectory() || !['.md', '.html', '.htm'].includes(ext)) continue; // GitHub's line anchors (#L10) and the like
      let anchor = fragment;
      try {
        anchor = decodeURIComponent(fragment);
      } catch {
        // keep it as written
      }
      if (!anchorsOf(dest).has(anchor)) {
        broken.push({ file, line, target, reason: `no anchor #${anchor} in ${relative(base, dest)}` });
      }
    }
  }
  return { broken, internal, external };
}

function walk(dir, keep) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** The documentation: README.md, docs/*.md, packages/*\/README.md, and the generated reference if asked. */
function documentation(withReference) {
  const files = [join(root, 'README.md')];
  files.push(...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f)));
  for (const p of readdirSync(join(root, 'packages'))) {
    const readme = join(root, 'packages', p, 'README.md');
    if (existsSync(readme)) files.push(readme);
  }
  if (withReference) files.push(...walk(join(root, 'docs', 'reference'), (f) => f.endsWith('.html')));
  return files;
}

function report(files, result) {
  for (const b of result.broken) console.log(`  ${relative(process.cwd(), b.file)}:${b.line}: broken link ${b.target} (${b.reason})`);
  console.log(
    `check-links: ${files.length} files, ${result.internal} internal links checked, ${result.external} external links not fetched, ${result.broken.length} broken`,
  );
}

function selfTest() {
  // The fixture's broken links are deliberate; each is listed with the reason it must give.
  const dir = join(root, 'tools', 'fixtures', 'links');
  const files = walk(dir, (f) => /\.(md|html)$/.test(f)).sort();
  const { broken, internal, external } = checkLinks(files, dir);
  const got = broken.map((b) => `${relative(dir, b.file).split(sep).join('/')}:${b.line} ${b.target}`).sort();
  const want = readFileSync(join(dir, 'expected-broken.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).sort();
  let passed = 0;
  let failed = 0;
  const check = (name, ok, detail) => {
    if (ok) passed++;
    else failed++;
    console.log(`  ${ok ? '✓' : '×'} ${name}${ok ? '' : `\n      ${detail}`}`);
  };
  for (const w of want) check(`finds the broken link ${w}`, got.includes(w), `not reported; reported: ${got.join(', ')}`);
  for (const g of got) if (!want.includes(g)) check(`reports only broken links (${g})`, false, `${g} is reported but works`);
  check('counts external links without fetching them', external === 3, `counted ${external} external links, the fixture has 3`);
  check('skips links in code blocks and code spans', !got.some((g) => g.includes('in-code')), 'a link in code was checked');
  check('checks the working links too', internal >= 12, `only ${internal} internal links seen`);
  // GitHub's slugs, the cases the documentation uses.
  const s = slugger();
  const slugs = ['Writing a backend of your own', 'API: `torch.nn` & co.', 'Registration: how the layers meet', 'Writing a backend of your own'].map(s);
  const wantSlugs = ['writing-a-backend-of-your-own', 'api-torchnn--co', 'registration-how-the-layers-meet', 'writing-a-backend-of-your-own-1'];
  check('makes GitHub heading slugs', JSON.stringify(slugs) === JSON.stringify(wantSlugs), `${slugs.join(', ')}`);
  console.log(`\n check-links self-test\n      Tests  ${passed} passed${failed ? ` | ${failed} failed` : ''} (${passed + failed})`);
  return failed === 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('check-links.mjs')) {
  const args = process.argv.slice(2);
  if (args.includes('--self-test')) process.exit(selfTest() ? 0 : 1);
  const withReference = args.includes('--reference');
  if (withReference && !existsSync(join(root, 'docs', 'reference', 'index.html'))) {
    console.log('check-links: docs/reference/ is missing: run `pnpm docs:api` first');
    process.exit(1);
  }
  const paths = args.filter((a) => !a.startsWith('--'));
  const files = paths.length
    ? paths.flatMap((p) => (statSync(p).isDirectory() ? walk(resolve(p), (f) => /\.(md|html)$/.test(f)) : [resolve(p)]))
    : documentation(withReference);
  const result = checkLinks(files);
  report(files, result);
  process.exit(result.broken.length ? 1 : 0);
}
