/**
 * Just enough of the ONNX format to write the bench's graphs in code: a protobuf wire-format
 * writer and the few ONNX messages (onnx.proto: ModelProto, GraphProto, NodeProto,
 * AttributeProto, TensorProto, ValueInfoProto) with the fields they need.
 *
 * Note [Protobuf wire format, the part we write]
 * A message is a sequence of fields, each a key `field_number << 3 | wire_type` (a varint)
 * then its value: wire type 0 a varint (int32/int64/enum; a negative int64 is its 64-bit two's
 * complement, 10 bytes), 2 a varint length then bytes (strings, nested messages), 5 four
 * little-endian bytes (float). Repeated fields are written one entry per key (unpacked), which
 * every parser accepts.
 */

class Writer {
  private readonly bytes: number[] = [];

  varint(v: number | bigint): void {
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      this.bytes.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.bytes.push(Number(x));
  }

  int(field: number, v: number): this {
    this.varint((field << 3) | 0);
    this.varint(v);
    return this;
  }

  raw(field: number, b: Uint8Array): this {
    this.varint((field << 3) | 2);
    this.varint(b.length);
    for (const x of b) this.bytes.push(x);
    return this;
  }

  string(field: number, s: string): this {
    return this.raw(field, new TextEncoder().encode(s));
  }

  message(field: number, m: Writer): this {
    return this.raw(field, m.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** TensorProto.DataType */
const FLOAT = 1;
const INT64 = 7;
/** AttributeProto.AttributeType */
const ATTR_INT = 2;
const ATTR_INTS = 7;

export interface NodeSpec {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** Integer and integer-list attributes (all the bench's nodes need). */
  readonly attrs?: Readonly<Record<string, number | readonly number[]>>;
}

export interface GraphSpec {
  readonly nodes: readonly NodeSpec[];
  /** float32 graph inputs and their shapes. */
  readonly inputs: readonly { readonly name: string; readonly dims: readonly number[] }[];
  /** float32 graph outputs (shapes left to the runtime's inference). */
  readonly outputs: readonly string[];
  /** int64 constants (ReduceSum's axes). */
  readonly int64s?: readonly { readonly name: string; readonly values: readonly number[] }[];
}

function attribute(name: string, v: number | readonly number[]): Writer {
  const a = new Writer().string(1, name);
  if (typeof v === 'number') return a.int(3, v).int(20, ATTR_INT);
  for (const x of v) a.int(8, x);
  return a.int(20, ATTR_INTS);
}

function node(n: NodeSpec): Writer {
  const w = new Writer();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(4, n.op);
  for (const [k, v] of Object.entries(n.attrs ?? {})) w.message(5, attribute(k, v));
  return w;
}

/** ValueInfoProto of a float32 tensor; `dims` omitted: shape unknown. */
function valueInfo(name: string, dims?: readonly number[]): Writer {
  const tensorType = new Writer().int(1, FLOAT);
  if (dims) {
    const shape = new Writer();
    for (const d of dims) shape.message(1, new Writer().int(1, d));
    tensorType.message(2, shape);
  }
  return new Writer().string(1, name).message(2, new Writer().message(1, tensorType));
}

function int64Tensor(name: string, values: readonly number[]): Writer {
  const t = new Writer().int(1, values.length).int(2, INT64);
  for (const v of values) t.int(7, v);
  return t.string(8, name);
}

/** A serialized ModelProto (IR version 7, default-domain opset 13) holding `g`. */
export function encodeModel(g: GraphSpec): Uint8Array {
  const graph = new Writer();
  for (const n of g.nodes) graph.message(1, node(n));
  graph.string(2, 'bench');
  for (const c of g.int64s ?? []) graph.message(5, int64Tensor(c.name, c.values));
  for (const i of g.inputs) graph.message(11, valueInfo(i.name, i.dims));
  for (const o of g.outputs) graph.message(12, valueInfo(o));
  return new Writer()
    .int(1, 7)
    .string(2, 'torch-ts-bench')
    .message(7, graph)
    .message(8, new Writer().int(2, 13))
    .finish();
}
