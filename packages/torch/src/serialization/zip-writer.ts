/**
 * A zip writer laid out as PyTorch's `PyTorchStreamWriter` (caffe2/serialize/
 * inline_container.cc, on miniz) lays out a `torch.save` archive, byte for byte for
 * archives under 4 GiB:
 *
 * - every entry is stored (method 0), flags 0x0808 (a data descriptor follows the data;
 *   the name is UTF-8), times, dates, versions and attributes all zero;
 * - the local header's CRC and sizes are zero; the data descriptor after the data
 *   (`PK\x07\x08`, CRC-32, sizes) and the central directory hold the real ones; an
 *   empty entry (an empty tensor's storage) has no descriptor and flags 0x0800, as miniz
 *   writes it;
 * - the local header's extra field is PyTorch's padding, `FB` + u16 length + 'Z'*length,
 *   so that every entry's data starts at a multiple of 64 bytes (kFieldAlignment: the
 *   storages can be mmapped and read as aligned arrays);
 * - the end is a ZIP64 end-of-central-directory record and locator, then the classic
 *   end record (miniz writes the ZIP64 ones for every archive PyTorch makes).
 *
 * Archives of 4 GiB or more need ZIP64 fields in every header; they are refused here
 * (a browser cannot hold one in an ArrayBuffer anyway). Browser-safe.
 */
import { TorchError } from '@torch-ts/core';

export interface ZipWriteEntry {
  name: string;
  data: Uint8Array;
}

/** PyTorch's kFieldAlignment. */
export const ZIP_ALIGNMENT = 64;

const LOCAL = 30;
const DESCRIPTOR = 16;
const CENTRAL = 46;
const ZIP64_EOCD = 56;
const ZIP64_LOCATOR = 20;
const EOCD = 22;

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3, as zip uses). */
export function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const t = crcTable;
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The padding (bytes of 'Z') that puts an entry's data at a multiple of 64, as PyTorch's getPadding. */
function padding(cursor: number, nameLength: number): number {
  const start = cursor + LOCAL + nameLength + 4; // + the FB field's own id and length
  return (ZIP_ALIGNMENT - (start % ZIP_ALIGNMENT)) % ZIP_ALIGNMENT;
}

/** UTF-8 names; a data descriptor after non-empty data. */
const flags = (e: ZipWriteEntry) => (e.data.length ? 0x0808 : 0x0800);

/** The archive holding `entries` in order. */
export function writeZip(entries: readonly ZipWriteEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const names = entries.map((e) => enc.encode(e.name));
  for (const n of names) if (n.length > 0xffff) throw new TorchError('zip: an entry name is longer than 65535 bytes');
  // Sizes first, so that the output is allocated once and the limit checked before any copy.
  const offsets: number[] = [];
  const pads: number[] = [];
  let pos = 0;
  entries.forEach((e, i) => {
    offsets.push(pos);
    pads.push(padding(pos, names[i].length));
    pos += LOCAL + names[i].length + 4 + pads[i] + e.data.length + (e.data.length ? DESCRIPTOR : 0);
  });
  const cdOffset = pos;
  const cdSize = names.reduce((s, n) => s + CENTRAL + n.length, 0);
  const total = cdOffset + cdSize + ZIP64_EOCD + ZIP64_LOCATOR + EOCD;
  if (cdOffset + cdSize >= 0xffffffff || entries.length >= 0xffff) {
    throw new TorchError(`zip: archives of 4 GiB or 65535 entries and more are not supported (this one needs ${cdOffset + cdSize} bytes in ${entries.length} entries)`);
  }
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  const crcs = entries.map((e) => crc32(e.data));
  let p = 0;
  entries.forEach((e, i) => {
    v.setUint32(p, 0x04034b50, true);
    v.setUint16(p + 6, flags(e), true);
    v.setUint16(p + 26, names[i].length, true);
    v.setUint16(p + 28, pads[i] + 4, true);
    out.set(names[i], p + LOCAL);
    p += LOCAL + names[i].length;
    out[p] = 0x46; // 'F'
    out[p + 1] = 0x42; // 'B'
    v.setUint16(p + 2, pads[i], true);
    out.fill(0x5a, p + 4, p + 4 + pads[i]); // 'Z'
    p += 4 + pads[i];
    out.set(e.data, p);
    p += e.data.length;
    if (!e.data.length) return;
    v.setUint32(p, 0x08074b50, true);
    v.setUint32(p + 4, crcs[i], true);
    v.setUint32(p + 8, e.data.length, true);
    v.setUint32(p + 12, e.data.length, true);
    p += DESCRIPTOR;
  });
  entries.forEach((e, i) => {
    v.setUint32(p, 0x02014b50, true);
    v.setUint16(p + 8, flags(e), true);
    v.setUint32(p + 16, crcs[i], true);
    v.setUint32(p + 20, e.data.length, true);
    v.setUint32(p + 24, e.data.length, true);
    v.setUint16(p + 28, names[i].length, true);
    v.setUint32(p + 42, offsets[i], true);
    out.set(names[i], p + CENTRAL);
    p += CENTRAL + names[i].length;
  });
  const zip64 = p;
  v.setUint32(p, 0x06064b50, true);
  v.setBigUint64(p + 4, BigInt(ZIP64_EOCD - 12), true);
  v.setUint16(p + 12, 0x031e, true); // made by: unix, 3.0 (miniz's value)
  v.setUint16(p + 14, 0x002d, true); // needed: 4.5 (ZIP64)
  v.setBigUint64(p + 24, BigInt(entries.length), true);
  v.setBigUint64(p + 32, BigInt(entries.length), true);
  v.setBigUint64(p + 40, BigInt(cdSize), true);
  v.setBigUint64(p + 48, BigInt(cdOffset), true);
  p += ZIP64_EOCD;
  v.setUint32(p, 0x07064b50, true);
  v.setBigUint64(p + 8, BigInt(zip64), true);
  v.setUint32(p + 16, 1, true);
  p += ZIP64_LOCATOR;
  v.setUint32(p, 0x06054b50, true);
  v.setUint16(p + 8, entries.length, true);
  v.setUint16(p + 10, entries.length, true);
  v.setUint32(p + 12, cdSize, true);
  v.setUint32(p + 16, cdOffset, true);
  return out;
}
