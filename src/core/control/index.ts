/** The control channel between a running agent and a person: messages, protocol and transports. */
export * from './messages';
export * from './transport';
export * from './controlProtocol';
export * from './inMemoryTransport';
export * from './portTransport';
export * from './terminalTransport';
