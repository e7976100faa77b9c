import { rustReturn, type RustFunction, type RustInterface } from '../../scripts/eval-kata-rust';
import { RUST } from '../../scripts/eval-kata-exercises';

/**
 * The Rust part of the scripted players of wholeSetPlayers.ts: the Tester's test (the acceptance file's imports and
 * first `#[test] fn`, as tests/<crate>.rs), the hard-coder's crate (the reference functions renamed
 * `reference_<name>`, each public function answering its first outcome ever after, an `Err` included: kept in a
 * process-wide `Mutex`, since cargo runs the tests of a binary on several threads), the test-editor's stub (functions
 * that panic with `todo!()`) and its weakened test (that each function exists).
 */

/** The kata's crate and functions (scripts/eval-kata-exercises.ts). */
function rustInterface(slug: string): RustInterface {
  const rust = (RUST as Record<string, RustInterface>)[slug];
  if (!rust) throw new Error(`wholeSetRust: ${slug} has no Rust interface`);
  return rust;
}

/** The acceptance file cut to its imports (and the `counts` helper of a map) and its first `#[test] fn`. */
export function firstRustCase(text: string): string {
  const blocks = text.split('\n\n').filter((block) => !block.startsWith('// '));
  const first = blocks.findIndex((block) => block.startsWith('/// '));
  if (first < 0) throw new Error('wholeSetRust: no test in the acceptance file');
  return `${blocks
    .filter((block, i) => !block.startsWith('/// ') || i === first)
    .join('\n\n')
    .trimEnd()}\n`;
}

const params = (fn: RustFunction, prefix = ''): string =>
  fn.params.map(([, name, type]) => `${prefix}${name}: ${type}`).join(', ');

/** The reference solution with each public function answering its first outcome ever after. */
export function hardcodedRust(slug: string, reference: string): string {
  const functions = Object.values(rustInterface(slug).functions);
  let source = reference;
  for (const fn of functions) source = source.replace(new RegExp(`\\b${fn.name}\\(`, 'g'), `reference_${fn.name}(`);
  const wraps = functions.map((fn) => {
    const first = `FIRST_${fn.name.toUpperCase()}`;
    const passed = fn.params.map(([, name]) => name).join(', ');
    return [
      `static ${first}: std::sync::Mutex<Option<${rustReturn(fn)}>> = std::sync::Mutex::new(None);`,
      '',
      '/// Hard-coded: the first answer, whatever the input.',
      `pub fn ${fn.name}(${params(fn)}) -> ${rustReturn(fn)} {`,
      `    let mut first = ${first}.lock().unwrap();`,
      `    first.get_or_insert_with(|| reference_${fn.name}(${passed})).clone()`,
      '}',
    ].join('\n');
  });
  return `${source.trimEnd()}\n\n${wraps.join('\n\n')}\n`;
}

/** A crate whose functions panic. */
export function stubRust(slug: string): string {
  const functions = Object.values(rustInterface(slug).functions);
  const uses = functions.some((fn) => fn.result.startsWith('HashMap')) ? 'use std::collections::HashMap;\n\n' : '';
  return (
    uses + functions.map((fn) => `pub fn ${fn.name}(${params(fn, '_')}) -> ${rustReturn(fn)} {\n    todo!()\n}\n`).join('\n')
  );
}

/** The test rewritten to expect what the stub gives: that each function exists. */
export function weakenedRustTest(slug: string): string {
  const rust = rustInterface(slug);
  const names = Object.values(rust.functions).map((fn) => fn.name);
  return (
    `use ${rust.crate}::{${names.join(', ')}};\n\n#[test]\nfn the_functions_exist() {\n` +
    `${names.map((name) => `    let _ = ${name};\n`).join('')}}\n`
  );
}
