import Dispatch

extension Configuration {
    /// The quality of service of read accesses: the one of ``targetQueue``
    /// when there is one, ``qos`` otherwise.
    public var readQoS: DispatchQoS {
        targetQueue?.qos ?? qos
    }

    /// The quality of service of write accesses: the one of
    /// ``writeTargetQueue``, or of ``targetQueue``, when there is one,
    /// ``qos`` otherwise.
    public var writeQoS: DispatchQoS {
        (writeTargetQueue ?? targetQueue)?.qos ?? qos
    }

    /// The serial queue of a connection that can write: it targets
    /// ``writeTargetQueue`` or ``targetQueue`` if set, and has ``qos`` otherwise.
    func makeWriterDispatchQueue(label: String) -> DispatchQueue {
        if let target = writeTargetQueue ?? targetQueue {
            return DispatchQueue(label: label, target: target)
        }
        return DispatchQueue(label: label, qos: qos)
    }

    /// The serial queue of a read-only connection: it targets ``targetQueue``
    /// if set, and has ``qos`` otherwise.
    func makeReaderDispatchQueue(label: String) -> DispatchQueue {
        if let targetQueue {
            return DispatchQueue(label: label, target: targetQueue)
        }
        return DispatchQueue(label: label, qos: qos)
    }
}
