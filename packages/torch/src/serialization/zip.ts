/**
 * A minimal zip reader for PyTorch checkpoints: the central directory (with ZIP64
 * records, which PyTorch's writer emits for large archives), stored entries, and
 * deflated ones through an `inflateRaw` the caller supplies (Node's zlib; PyTorch itself
 * never compresses). Every offset is bounds-checked: a bad archive is a TorchError.
 * Browser-safe.
 */
import { TorchError } from '@torch-ts/core';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export type InflateRaw = (data: Uint8Array) => Uint8Array;

const bad = (msg: string) => new TorchError(`zip: ${msg}`);

export class ZipReader {
  readonly entries = new Map<string, ZipEntry>();
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array, private readonly inflateRaw?: InflateRaw) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readDirectory();
  }

  private u16(o: number): number {
    this.check(o, 2);
    return this.view.getUint16(o, true);
  }

  private u32(o: number): number {
    this.check(o, 4);
    return this.view.getUint32(o, true);
  }

  private u64(o: number): number {
    this.check(o, 8);
    const v = this.view.getBigUint64(o, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw bad('a 64-bit size is too large');
    return Number(v);
  }

  private check(o: number, n: number): void {
    if (o < 0 || o + n > this.bytes.length) throw bad('truncated archive (an offset points past the end)');
  }

  private readDirectory(): void {
    const b = this.bytes;
    // End of central directory: 22 bytes + a comment of up to 65535 bytes, at the end.
    let eocd = -1;
    for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
      if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 0x05 && b[i + 3] === 0x06) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw bad('no end-of-central-directory record (not a zip archive, or truncated)');
    let count = this.u16(eocd + 10);
    let cdSize = this.u32(eocd + 12);
    let cdOffset = this.u32(eocd + 16);
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      const loc = eocd - 20;
      if (loc < 0 || this.u32(loc) !== 0x07064b50) throw bad('missing ZIP64 locator');
      const z = this.u64(loc + 8);
      if (this.u32(z) !== 0x06064b50) throw bad('bad ZIP64 end-of-central-directory record');
      count = this.u64(z + 32);
      cdSize = this.u64(z + 40);
      cdOffset = this.u64(z + 48);
    }
    this.check(cdOffset, cdSize);
    let p = cdOffset;
    const dec = new TextDecoder();
    for (let i = 0; i < count; i++) {
      if (this.u32(p) !== 0x02014b50) throw bad('bad central directory entry');
      const method = this.u16(p + 10);
      let compressedSize = this.u32(p + 20);
      let size = this.u32(p + 24);
      const nameLen = this.u16(p + 28);
      const extraLen = this.u16(p + 30);
      const commentLen = this.u16(p + 32);
      let localHeaderOffset = this.u32(p + 42);
      this.check(p + 46, nameLen + extraLen + commentLen);
      const name = dec.decode(b.subarray(p + 46, p + 46 + nameLen));
      // ZIP64 extended information: the 0xFFFFFFFF fields, in order.
      let e = p + 46 + nameLen;
      const eEnd = e + extraLen;
      while (e + 4 <= eEnd) {
        const id = this.u16(e);
        const len = this.u16(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (size === 0xffffffff) (size = this.u64(q)), (q += 8);
          if (compressedSize === 0xffffffff) (compressedSize = this.u64(q)), (q += 8);
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = this.u64(q);
        }
        e += 4 + len;
      }
      this.entries.set(name, { name, method, compressedSize, size, localHeaderOffset });
      p += 46 + nameLen + extraLen + commentLen;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's uncompressed bytes (a view into the archive for stored entries). */
  read(name: string): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw bad(`no entry named "${name}"`);
    const h = e.localHeaderOffset;
    if (this.u32(h) !== 0x04034b50) throw bad(`bad local header for "${name}"`);
    const start = h + 30 + this.u16(h + 26) + this.u16(h + 28);
    this.check(start, e.compressedSize);
    const raw = this.bytes.subarray(start, start + e.compressedSize);
    if (e.method === 0) {
      if (e.size !== e.compressedSize) throw bad(`stored entry "${name}" has inconsistent sizes`);
      return raw;
    }
    if (e.method === 8) {
      if (!this.inflateRaw) throw bad(`entry "${name}" is deflate-compressed and no inflater is available here`);
      let out: Uint8Array;
      try {
        out = this.inflateRaw(raw);
      } catch (err) {
        throw bad(`entry "${name}" cannot be inflated (${(err as Error).message})`);
      }
      if (out.length !== e.size) throw bad(`entry "${name}" inflated to ${out.length} bytes, expected ${e.size}`);
      return out;
    }
    throw bad(`entry "${name}" uses unsupported compression method ${e.method}`);
  }
}
