import CZlib
import Foundation

/// Raw deflate (RFC 1951, no zlib or gzip header), as Core Data stores the
/// model cached in `Z_MODELCACHE.Z_CONTENT`.
public enum RawDeflate {
    /// The most bytes ``inflate(_:limit:)`` produces by default: a model
    /// archive is kilobytes; 64 MiB leaves room for huge models and stops a
    /// deflate bomb long before memory runs out.
    public static let defaultInflatedLimit = 64 << 20

    /// Decompresses `compressed`; corrupt or truncated input, or output
    /// beyond `limit` bytes, is a typed error.
    public static func inflate(_ compressed: Data, limit: Int = defaultInflatedLimit) throws(ModelError) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ModelError(.corruptCompressedData, "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var status: Int32 = Z_OK
        var input = [UInt8](compressed)
        let inputCount = input.count
        try input.withUnsafeMutableBufferPointer { (inputBuffer) throws(ModelError) in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputCount)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunkSize - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
                    let reason = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                    throw ModelError(.corruptCompressedData, "corrupt deflate data at input byte \(inputCount - Int(stream.avail_in)): \(reason)")
                }
                guard output.count + produced <= limit else {
                    throw ModelError(.inflatedSizeLimit, "inflates beyond \(limit) bytes (from \(inputCount) compressed)")
                }
                output.append(contentsOf: chunk[0..<produced])
                if status != Z_STREAM_END && produced == 0 && stream.avail_in == 0 {
                    throw ModelError(.corruptCompressedData, "truncated deflate data: the stream ends after \(inputCount) bytes without its final block")
                }
            } while status != Z_STREAM_END
        }
        return output
    }

    /// Compresses `data` as raw deflate at zlib's default level.
    public static func deflate(_ data: Data) throws(ModelError) -> Data {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ModelError(.corruptCompressedData, "zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound + 16)
        let outputCount = output.count
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputCount)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw ModelError(.corruptCompressedData, "deflate failed with status \(status)") }
        return Data(output[0..<Int(stream.total_out)])
    }
}
