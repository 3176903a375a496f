import Testing

/// Every suite that uses the shared stack, one test at a time: some tests
/// kill a storage node, the proxy or a server process, and a test running
/// beside them would see that as its own failure.
@Suite(.serialized) struct OnTheDistributedStack {}
