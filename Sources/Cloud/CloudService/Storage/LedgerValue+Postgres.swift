import Foundation
import PostgresNIO

/// ``LedgerValue`` to and from PostgreSQL's binary wire format: integers
/// are sent as `BIGINT` (`INT8`), text as `TEXT`, blobs as `BYTEA`, and
/// null untyped, so the server infers the column's type.
extension LedgerValue {
    /// The bindings of one statement, `$1` first.
    static func postgresBindings(_ values: [LedgerValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .integer(let integer): bindings.append(integer)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }

    /// The value of one result cell.
    ///
    /// Integers of every width read as ``integer(_:)``, and so do `NUMERIC`
    /// values without a fraction (PostgreSQL's `SUM` over `BIGINT`
    /// answers `NUMERIC`) and booleans (0 or 1, as SQLite has them). Types
    /// the ledger never uses are a ``CloudStorageError/Code/protocolError``.
    init(postgresCell cell: PostgresCell, operation: String) throws(CloudStorageError) {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        let column = "column \(cell.columnIndex + 1) '\(cell.columnName)'"
        do {
            switch cell.dataType {
            case .int8: self = .integer(try cell.decode(Int64.self))
            case .int4: self = .integer(Int64(try cell.decode(Int32.self)))
            case .int2: self = .integer(Int64(try cell.decode(Int16.self)))
            case .bool: self = .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .numeric:
                let decimal = try cell.decode(Decimal.self)
                // Decimal's description of a whole number is its digits.
                guard let integer = Int64(decimal.description) else {
                    throw CloudStorageError(.protocolError, operation, "\(column) is NUMERIC \(decimal), not a 64-bit integer")
                }
                self = .integer(integer)
            case .text, .varchar, .bpchar, .name: self = .text(try cell.decode(String.self))
            case .bytea:
                let buffer = try cell.decode(ByteBuffer.self)
                self = .blob(Array(buffer.readableBytesView))
            default:
                throw CloudStorageError(.protocolError, operation,
                                        "\(column) has type \(cell.dataType), which the ledger does not read")
            }
        } catch let error as CloudStorageError {
            throw error
        } catch {
            throw CloudStorageError(.protocolError, operation,
                                    "\(column) of type \(cell.dataType) could not be decoded: \(String(reflecting: error))",
                                    underlying: error)
        }
    }
}
