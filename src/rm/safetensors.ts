import type { FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import { UserError } from '../core/index.js';

/**
 * Largest header read: 16 MiB. The reference implementation allows 100 MB, but an orchrm header
 * (metadata and a few tensor entries) is a few kilobytes, and a header is parsed as JSON before
 * anything else can be checked, at several times its size in memory.
 */
export const MAX_SAFETENSORS_HEADER_BYTES = 16 * 1024 * 1024;

/** Float64 and Float32 tensors (what our heads store); the format names them F64 and F32. */
export type SafetensorsDtype = 'F64' | 'F32';

export interface SafetensorsTensor {
  dtype: SafetensorsDtype;
  shape: readonly number[];
  data: Float64Array | Float32Array;
}

export interface SafetensorsFile {
  tensors: Map<string, SafetensorsTensor>;
  metadata: Record<string, string>;
  /** The data section (all tensor bytes), for integrity hashes. */
  dataBytes: Uint8Array;
}

/** A file that does not follow the safetensors layout; `message` says which rule broke. */
export class SafetensorsFormatError extends UserError {}

const BYTES: Record<SafetensorsDtype, number> = { F64: 8, F32: 4 };
const littleEndianHost = endianness() === 'LE';

function tensorBytes(data: Float64Array | Float32Array): Uint8Array {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (littleEndianHost) return bytes;
  const copy = new Uint8Array(data.byteLength);
  const view = new DataView(copy.buffer);
  data.forEach((value, index) => (data instanceof Float64Array ? view.setFloat64(index * 8, value, true) : view.setFloat32(index * 4, value, true)));
  return copy;
}

/**
 * Serialises tensors in the safetensors format (huggingface/safetensors): an unsigned 64-bit
 * little-endian header length, a JSON header mapping each name to `dtype`, `shape` and
 * `data_offsets` (plus a `__metadata__` string map), padded with spaces to a multiple of 8
 * bytes, then the little-endian tensor bytes back to back in the order given.
 *
 * @example
 * const bytes = writeSafetensors([['w', { dtype: 'F64', shape: [2], data: Float64Array.of(1, 2) }]], { format: 'x' });
 */
export function writeSafetensors(tensors: readonly [name: string, tensor: SafetensorsTensor][], metadata: Record<string, string>): Buffer {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const [name, tensor] of tensors) {
    const length = tensor.data.length * BYTES[tensor.dtype];
    header[name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + length] };
    offset += length;
  }
  let headerText = JSON.stringify(header);
  const headerLength = Buffer.byteLength(headerText);
  headerText += ' '.repeat((8 - ((8 + headerLength) % 8)) % 8);
  const headerBytes = Buffer.from(headerText, 'utf8');
  const out = Buffer.alloc(8 + headerBytes.length + offset);
  out.writeBigUInt64LE(BigInt(headerBytes.length), 0);
  headerBytes.copy(out, 8);
  let position = 8 + headerBytes.length;
  for (const [, tensor] of tensors) {
    out.set(tensorBytes(tensor.data), position);
    position += tensor.data.byteLength;
  }
  return out;
}

function readTensor(dtype: SafetensorsDtype, bytes: Uint8Array): Float64Array | Float32Array {
  const size = BYTES[dtype];
  const count = bytes.length / size;
  // Copy into a fresh (aligned) buffer; the file's tensor bytes need not be aligned.
  const copy = new Uint8Array(bytes);
  const values = dtype === 'F64' ? new Float64Array(copy.buffer, 0, count) : new Float32Array(copy.buffer, 0, count);
  fromLittleEndian(values);
  return values;
}

/**
 * Turns values whose bytes were copied from a little-endian file into this host's order, in
 * place (nothing to do on a little-endian host).
 */
export function fromLittleEndian(values: Float64Array | Float32Array): void {
  if (littleEndianHost) return;
  const view = new DataView(values.buffer, values.byteOffset, values.byteLength);
  for (let index = 0; index < values.length; index++) values[index] = values instanceof Float64Array ? view.getFloat64(index * 8, true) : view.getFloat32(index * 4, true);
}

/** One tensor as the header declares it: where its bytes lie in the data section. */
export interface SafetensorsEntry {
  name: string;
  dtype: SafetensorsDtype;
  shape: readonly number[];
  /** Byte range in the data section, `end` exclusive. */
  begin: number;
  end: number;
}

/** A checked header: its metadata and tensor entries (sorted by offset), and where the data section lies in the file. */
export interface SafetensorsHeader {
  metadata: Record<string, string>;
  entries: SafetensorsEntry[];
  /** Byte offset of the data section in the file (8 + the header length). */
  dataOffset: number;
  /** Length of the data section. */
  dataBytes: number;
}

/**
 * The header length in the first 8 bytes of a file of `fileBytes` bytes, checked against the file
 * size and `MAX_SAFETENSORS_HEADER_BYTES` before anything of that length is allocated.
 */
export function checkHeaderLength(prefix: Uint8Array, fileBytes: number): number {
  if (fileBytes < 8 || prefix.length < 8) throw new SafetensorsFormatError(`the file has ${fileBytes} bytes, fewer than the 8-byte header length`);
  const declared = new DataView(prefix.buffer, prefix.byteOffset, 8).getBigUint64(0, true);
  if (declared > BigInt(MAX_SAFETENSORS_HEADER_BYTES) || 8n + declared > BigInt(fileBytes)) {
    throw new SafetensorsFormatError(`the header length ${declared} does not fit in a file of ${fileBytes} bytes (at most ${MAX_SAFETENSORS_HEADER_BYTES} bytes of header are read)`);
  }
  return Number(declared);
}

/**
 * Parses and checks a JSON header against the size of the data section that follows it: every
 * dtype, every shape (non-negative safe integers whose element count fits in the data), every
 * `data_offsets` pair (inside the data, exactly the shape's bytes), and the data covered exactly,
 * without holes or overlaps. Nothing is allocated from a size the header claims.
 */
export function parseSafetensorsHeader(headerBytes: Uint8Array, dataBytes: number, dataOffset = 8 + headerBytes.length): SafetensorsHeader {
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(headerBytes.buffer, headerBytes.byteOffset, headerBytes.length).toString('utf8'));
  } catch (error) {
    throw new SafetensorsFormatError(`the JSON header does not parse (${(error as Error).message})`);
  }
  if (!isPlainObject(header)) throw new SafetensorsFormatError('the JSON header is not an object');
  const metadata: Record<string, string> = {};
  const entries: SafetensorsEntry[] = [];
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (!isPlainObject(entry)) throw new SafetensorsFormatError('__metadata__ is not an object of strings');
      for (const [key, value] of Object.entries(entry)) {
        if (typeof value !== 'string') throw new SafetensorsFormatError(`metadata ${JSON.stringify(key)} is not a string`);
        metadata[key] = value;
      }
      continue;
    }
    const label = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}...` : name);
    if (!isPlainObject(entry)) throw new SafetensorsFormatError(`tensor ${label} is not an object with dtype, shape and data_offsets`);
    const { dtype, shape, data_offsets: offsets } = entry;
    if (dtype !== 'F64' && dtype !== 'F32') throw new SafetensorsFormatError(`tensor ${label} has dtype ${JSON.stringify(dtype ?? null)?.slice(0, 40)}; orchrm reads F64 and F32`);
    if (!Array.isArray(shape) || shape.length > MAX_RANK || !shape.every((size) => Number.isSafeInteger(size) && (size as number) >= 0)) {
      throw new SafetensorsFormatError(`tensor ${label} has an invalid shape (a list of at most ${MAX_RANK} non-negative integers)`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((value) => Number.isSafeInteger(value))) throw new SafetensorsFormatError(`tensor ${label} has invalid data_offsets`);
    const [begin, end] = offsets as [number, number];
    const bytes = tensorByteLength(shape as number[], BYTES[dtype], dataBytes);
    if (bytes === undefined || begin < 0 || end < begin || end > dataBytes || end - begin !== bytes) {
      throw new SafetensorsFormatError(`tensor ${label} spans bytes ${begin}..${end} of ${dataBytes}, but its shape [${(shape as number[]).join(', ')}] needs ${bytes ?? 'more than the file holds'}`);
    }
    entries.push({ name, dtype, shape: shape as number[], begin, end });
  }
  // The format requires the data section to be covered exactly: no holes, no overlaps.
  entries.sort((a, b) => a.begin - b.begin);
  let covered = 0;
  for (const { begin, end, name } of entries) {
    if (begin !== covered) throw new SafetensorsFormatError(`tensor ${JSON.stringify(name)} starts at byte ${begin}, expected ${covered} (holes or overlaps in the data)`);
    covered = end;
  }
  if (covered !== dataBytes) throw new SafetensorsFormatError(`the data section has ${dataBytes} bytes but the tensors cover ${covered}`);
  return { metadata, entries, dataOffset, dataBytes };
}

/** Most dimensions of a tensor (ours have 1 or 2). */
const MAX_RANK = 8;

/** Bytes of a tensor of this shape, or undefined when they would pass `limit` (computed without overflow). */
function tensorByteLength(shape: readonly number[], elementBytes: number, limit: number): number | undefined {
  if (shape.includes(0)) return 0;
  let bytes = elementBytes;
  for (const size of shape) {
    if (bytes > limit / size) return undefined;
    bytes *= size;
  }
  return bytes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses safetensors bytes held in memory, checking every layout rule; throws SafetensorsFormatError. */
export function readSafetensors(file: Uint8Array): SafetensorsFile {
  const headerLength = checkHeaderLength(file, file.length);
  const dataBytes = file.subarray(8 + headerLength);
  const header = parseSafetensorsHeader(file.subarray(8, 8 + headerLength), dataBytes.length);
  const tensors = new Map<string, SafetensorsTensor>();
  for (const { name, dtype, shape, begin, end } of header.entries) tensors.set(name, { dtype, shape, data: readTensor(dtype, dataBytes.subarray(begin, end)) });
  return { tensors, metadata: header.metadata, dataBytes };
}

/**
 * Reads and checks the header of a safetensors file through an open handle: the 8-byte length
 * (against the file size), then the header alone, so a file is never read whole before its
 * header has been checked. The tensor bytes are left for the caller to read where they belong.
 */
export async function readSafetensorsHeader(handle: FileHandle): Promise<SafetensorsHeader> {
  const { size } = await handle.stat();
  const prefix = await readExactly(handle, new Uint8Array(Math.min(8, size)), 0);
  const headerLength = checkHeaderLength(prefix, size);
  const headerBytes = await readExactly(handle, new Uint8Array(headerLength), 8);
  return parseSafetensorsHeader(headerBytes, size - 8 - headerLength);
}

/** Fills `into` from the file at `position`; a file that ends first is truncated. */
export async function readExactly(handle: FileHandle, into: Uint8Array, position: number): Promise<Uint8Array> {
  let filled = 0;
  while (filled < into.length) {
    const { bytesRead } = await handle.read(into, filled, into.length - filled, position + filled);
    if (bytesRead === 0) throw new SafetensorsFormatError(`the file ends at byte ${position + filled}, before the ${into.length} bytes expected there (it was truncated while being read)`);
    filled += bytesRead;
  }
  return into;
}
