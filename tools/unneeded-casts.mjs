#!/usr/bin/env node
// Lists (or with --fix removes) the type assertions of a package's sources that assert a type
// the expression already has: `x as T` where x's type is assignable to T. They appear when a
// value's type becomes precise (schema-typed kernel arguments, Note [Schema types]) and
// only hide the next real mistake. Run the package's typecheck after --fix: a removal that
// changes an inferred type elsewhere shows up there. The verdict holds for the package's own
// tsconfig only: an assertion about a platform global (`globalThis.process`) may be needed
// where core is compiled without Node's types (tools/fixtures/third-party-backend), so review
// what --fix removed around globals.
// Usage: node tools/unneeded-casts.mjs packages/core [--fix]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const pkg = resolve(process.argv[2] ?? '.');
const fix = process.argv.includes('--fix');
const skipFile = process.argv.find((a) => a.startsWith('--skip='))?.slice(7);
const skip = new Set(skipFile ? readFileSync(skipFile, 'utf8').split('\n').filter(Boolean) : []);

const configPath = join(pkg, 'tsconfig.json');
const cfg = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: cfg.fileNames, options: cfg.options });
const checker = program.getTypeChecker();

// Operands whose type the assertion itself shapes (contextual typing): never "unneeded".
const CONTEXTUAL = new Set([
  ts.SyntaxKind.ArrayLiteralExpression, ts.SyntaxKind.ObjectLiteralExpression, ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.StringLiteral, ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral, ts.SyntaxKind.TemplateExpression, ts.SyntaxKind.NullKeyword,
  ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.ConditionalExpression, ts.SyntaxKind.BinaryExpression, ts.SyntaxKind.AsExpression,
]);
const SIMPLE = new Set([ts.SyntaxKind.Identifier, ts.SyntaxKind.PropertyAccessExpression, ts.SyntaxKind.ElementAccessExpression, ts.SyntaxKind.ThisKeyword]);

/** A call whose signature has type parameters: the assertion may steer its inference. */
function genericCall(e) {
  if (!ts.isCallExpression(e)) return false;
  const decl = checker.getResolvedSignature(e)?.getDeclaration();
  return !decl || (decl.typeParameters?.length ?? 0) > 0;
}

let total = 0;
for (const sf of program.getSourceFiles()) {
  const f = sf.fileName;
  if (!f.startsWith(join(pkg, 'src')) || f.includes('/generated/') || f.endsWith('.d.ts')) continue;
  const edits = [];
  const visit = (node) => {
    if (ts.isAsExpression(node) && node.type.getText(sf) !== 'const' && !CONTEXTUAL.has(node.expression.kind) && !genericCall(node.expression)) {
      const from = checker.getTypeAtLocation(node.expression);
      const to = checker.getTypeFromTypeNode(node.type);
      const key = `${f}:${node.getStart(sf)}`;
      // (an upcast whose result is then read from, `(x as Wide).field`, changes what the read finds: kept)
      const read = ts.isParenthesizedExpression(node.parent) && (ts.isPropertyAccessExpression(node.parent.parent) || ts.isElementAccessExpression(node.parent.parent) || ts.isCallExpression(node.parent.parent));
      const same = checker.typeToString(from) === checker.typeToString(to);
      if (!skip.has(key) && !(to.flags & ts.TypeFlags.Unknown) && !(to.flags & ts.TypeFlags.Any) && checker.isTypeAssignableTo(from, to) && !(from.flags & ts.TypeFlags.Any) && (same || !read)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        console.log(`${f.slice(pkg.length + 1)}:${line + 1}: ${node.getText(sf).slice(0, 100)}`);
        total++;
        const outer = ts.isParenthesizedExpression(node.parent) && SIMPLE.has(node.expression.kind) ? node.parent : node;
        edits.push({ start: outer.getStart(sf), end: outer.getEnd(), text: node.expression.getText(sf), key });
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (fix && edits.length) {
    let text = sf.getFullText();
    for (const e of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    writeFileSync(f, text);
  }
}
console.log(`unneeded casts: ${total}${fix ? ' (removed)' : ''}`);
