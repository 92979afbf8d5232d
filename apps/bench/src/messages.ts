/**
 * What crosses a process boundary as JSON (main.ts -> child.ts: the config; child.ts and
 * py/bench_torch.py -> main.ts: the messages), checked when it is parsed: a child of another
 * version, or a line a library printed on stdout, is named here rather than read as numbers.
 */
import type { ChildConfig, ChildMessage } from './child';
import { ALL_LIB_NAMES, type NodeLibName } from './libs/types';
import type { MeasureOptions, Measurement } from './measure';
import type { Probe } from './probe';

const NODE_LIB_NAMES = ALL_LIB_NAMES.filter((n) => n !== 'pytorch' && n !== 'pytorch-cuda');

const isObject = (x: unknown): x is Readonly<Record<string, unknown>> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isString = (x: unknown): x is string => typeof x === 'string';
const isNumber = (x: unknown): x is number => typeof x === 'number';
const isNumbers = (x: unknown): x is number[] => Array.isArray(x) && x.every(isNumber);
const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every(isString);
const isOptional = <T>(x: unknown, is: (v: unknown) => v is T): x is T | undefined => x === undefined || is(x);

function isProbe(x: unknown): x is Probe {
  return isObject(x) && isNumber(x.length) && isNumbers(x.samples) && isNumber(x.sum) && isNumber(x.sumAbs);
}

function isMeasurement(x: unknown): x is Measurement {
  return (
    isObject(x) &&
    isString(x.id) &&
    isNumbers(x.samples) &&
    isOptional(x.cpuSamples, isNumbers) &&
    isOptional(x.readSamples, isNumbers) &&
    isOptional(x.probe, isProbe) &&
    isOptional(x.na, isString)
  );
}

function isMeasureOptions(x: unknown): x is MeasureOptions {
  return (
    isObject(x) &&
    isNumber(x.targetMs) &&
    isNumber(x.maxReps) &&
    isNumber(x.warmupMs) &&
    isNumber(x.maxWarmups) &&
    isNumber(x.slowMs) &&
    typeof x.probe === 'boolean'
  );
}

/** One line a child wrote: a measurement or its library's description. */
export function parseChildMessage(line: string): ChildMessage {
  const x: unknown = JSON.parse(line);
  if (isObject(x)) {
    if (x.kind === 'describe' && isString(x.text)) return { kind: 'describe', text: x.text };
    if (x.kind === 'measurement' && isMeasurement(x.m)) return { kind: 'measurement', m: x.m };
  }
  throw new Error(`bench: not a child's message: ${line.slice(0, 200)}`);
}

/** The config main.ts gives a Node child (TORCH_TS_BENCH_CHILD). */
export function parseChildConfig(text: string | undefined): ChildConfig & { lib: NodeLibName } {
  if (text === undefined) throw new Error('bench: child.ts runs under main.ts, which sets TORCH_TS_BENCH_CHILD');
  const x: unknown = JSON.parse(text);
  if (isObject(x) && isStrings(x.ids) && isMeasureOptions(x.options) && isNumber(x.predictLimitMs)) {
    const lib = NODE_LIB_NAMES.find((n) => n === x.lib);
    if (lib !== undefined) return { lib, ids: x.ids, options: x.options, predictLimitMs: x.predictLimitMs };
  }
  throw new Error(`bench: not a child config: ${text.slice(0, 200)}`);
}
