/**
 * A minimal zip reader for PyTorch checkpoints: the central directory (with ZIP64
 * records, which PyTorch's writer emits for large archives), stored entries, and
 * deflated ones through an `inflateRaw` the caller supplies (Node's zlib; PyTorch itself
 * never compresses). Browser-safe.
 *
 * Note [Hostile archives]
 * Everything is checked before anything is inflated or allocated: every offset and size
 * lies inside the file (ZIP64 fields inside their extra field); entry names are unique
 * (two readers must not disagree on which `data.pkl` is meant); entries do not overlap
 * (overlapping entries are how a small zip declares terabytes); a deflated entry declares
 * no more than deflate can produce from its compressed bytes (1032:1); and the declared
 * size is a hard limit given to the inflater, which must stop there, so a bomb whose
 * entry declares 144 bytes costs 144 bytes. The total work is linear in the file.
 */
import { TorchError } from '@torch-ts/core';
import { errorMessage } from './guards';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  /** Where the entry's (compressed) bytes start. */
  dataOffset: number;
}

/**
 * Inflates raw deflate `data`, producing at most `maxOutputLength` bytes: past that it
 * must stop (throw, or return what it has) rather than keep going. Node:
 * `(d, max) => inflateRawSync(d, { maxOutputLength: Math.max(1, max) })`.
 */
export type InflateRaw = (data: Uint8Array, maxOutputLength: number) => Uint8Array;

/** Deflate's best ratio: a 258-byte match in 2 bits. */
const MAX_DEFLATE_RATIO = 1032;

const bad = (msg: string) => new TorchError(`zip: ${msg}`);

export class ZipReader {
  readonly entries = new Map<string, ZipEntry>();
  /** Entry names in central-directory order. */
  readonly names: string[] = [];
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    private readonly inflateRaw?: InflateRaw,
  ) {
    if (!(bytes instanceof Uint8Array)) throw bad('expected a Uint8Array');
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

  /** A 64-bit offset or size, at most `limit` (the file's length unless said otherwise). */
  private u64(o: number, limit = this.bytes.length): number {
    this.check(o, 8);
    const v = this.view.getBigUint64(o, true);
    if (v > BigInt(limit)) throw bad(`a 64-bit size or offset (${v}) is too large`);
    return Number(v);
  }

  private check(o: number, n: number): void {
    if (!(o >= 0 && n >= 0 && o + n <= this.bytes.length)) throw bad('truncated archive (an offset points past the end)');
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
    let cdEnd = eocd;
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      const loc = eocd - 20;
      if (loc < 0 || this.u32(loc) !== 0x07064b50) throw bad('missing ZIP64 end-of-central-directory locator');
      const z = this.u64(loc + 8);
      if (z + 56 > loc || this.u32(z) !== 0x06064b50) throw bad('bad ZIP64 end-of-central-directory record');
      count = this.u64(z + 32, Number.MAX_SAFE_INTEGER);
      cdSize = this.u64(z + 40);
      cdOffset = this.u64(z + 48);
      cdEnd = z;
    }
    if (cdOffset + cdSize > cdEnd) throw bad(`the central directory (${cdSize} bytes at ${cdOffset}) runs past its end record`);
    // Each entry takes at least 46 bytes: a count the directory cannot hold is a lie.
    if (count * 46 > cdSize) throw bad(`the central directory declares ${count} entries but has room for ${Math.floor(cdSize / 46)}`);
    let p = cdOffset;
    const end = cdOffset + cdSize;
    const dec = new TextDecoder();
    for (let i = 0; i < count; i++) {
      if (p + 46 > end || this.u32(p) !== 0x02014b50) throw bad(`bad central directory entry ${i}`);
      const flags = this.u16(p + 8);
      const method = this.u16(p + 10);
      let compressedSize = this.u32(p + 20);
      let size = this.u32(p + 24);
      const nameLen = this.u16(p + 28);
      const extraLen = this.u16(p + 30);
      const commentLen = this.u16(p + 32);
      let localHeaderOffset = this.u32(p + 42);
      const next = p + 46 + nameLen + extraLen + commentLen;
      if (next > end) throw bad(`central directory entry ${i} runs past the directory`);
      const name = dec.decode(b.subarray(p + 46, p + 46 + nameLen));
      if (flags & 1) throw bad(`entry "${name}" is encrypted`);
      // ZIP64 extended information: the 0xFFFFFFFF fields, in order, inside the field.
      let e = p + 46 + nameLen;
      const eEnd = e + extraLen;
      while (e + 4 <= eEnd) {
        const id = this.u16(e);
        const len = this.u16(e + 2);
        if (e + 4 + len > eEnd) throw bad(`entry "${name}" has a malformed extra field`);
        if (id === 0x0001) {
          let q = e + 4;
          const field = (limit?: number): number => {
            if (q + 8 > e + 4 + len) throw bad(`entry "${name}" has a short ZIP64 extra field`);
            q += 8;
            return this.u64(q - 8, limit);
          };
          if (size === 0xffffffff) size = field(Number.MAX_SAFE_INTEGER);
          if (compressedSize === 0xffffffff) compressedSize = field();
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = field();
        }
        e += 4 + len;
      }
      if (this.entries.has(name)) throw bad(`duplicate entry "${name}" (readers would disagree on which one is meant)`);
      const h = localHeaderOffset;
      if (this.u32(h) !== 0x04034b50) throw bad(`bad local header for "${name}"`);
      const dataOffset = h + 30 + this.u16(h + 26) + this.u16(h + 28);
      this.check(dataOffset, compressedSize);
      if (method === 0 && size !== compressedSize) throw bad(`stored entry "${name}" has inconsistent sizes (${compressedSize} stored, ${size} declared)`);
      if (method === 8 && size > compressedSize * MAX_DEFLATE_RATIO + 16) {
        throw bad(`entry "${name}" declares ${size} bytes, more than deflate can produce from ${compressedSize}`);
      }
      this.entries.set(name, { name, method, compressedSize, size, localHeaderOffset, dataOffset });
      this.names.push(name);
      p = next;
    }
    // Entries (local header to end of data) may not overlap each other or the directory.
    const spans = [...this.entries.values()].map((x) => [x.localHeaderOffset, x.dataOffset + x.compressedSize]).sort((x, y) => x[0] - y[0]);
    for (let i = 0; i < spans.length; i++) {
      const limit = i + 1 < spans.length ? spans[i + 1][0] : cdOffset;
      if (spans[i][1] > limit) throw bad('entries overlap each other or the central directory (a zip bomb?)');
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's uncompressed bytes (a view into the archive for stored entries), at most its declared size. */
  read(name: string): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw bad(`no entry named "${name}"`);
    const raw = this.bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
    if (e.method === 0) return raw;
    if (e.method === 8) {
      if (!this.inflateRaw) throw bad(`entry "${name}" is deflate-compressed and no inflater is available here`);
      let out: Uint8Array;
      try {
        // One byte past the declared size: an entry that inflates to more is caught at once.
        out = this.inflateRaw(raw, e.size + 1);
      } catch (err) {
        throw bad(`entry "${name}" cannot be inflated within its declared ${e.size} bytes (${errorMessage(err)})`);
      }
      if (!(out instanceof Uint8Array) || out.length !== e.size) {
        throw bad(`entry "${name}" inflated to ${out instanceof Uint8Array ? out.length : 'no'} bytes, expected ${e.size}`);
      }
      return out;
    }
    throw bad(`entry "${name}" uses unsupported compression method ${e.method}`);
  }
}
