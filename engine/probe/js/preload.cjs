// @ts-check
// Loaded with --require before the package under probe: every socket
// connect, listen, UDP send and DNS lookup throws, and so do fetch,
// WebSocket and process.kill. Node's permission model already refuses
// writes, child processes, workers and addons; it does not govern the
// network, which is why this file exists. Each refusal is recorded for the
// probe, which reports the copy inconclusive when anything was refused.
'use strict';

const denied = [];
Object.defineProperty(globalThis, Symbol.for('uptide.probe.denied'), { value: denied });

/** @param {string} what */
function refuse(what) {
  return function () {
    denied.push(what);
    const err = new Error('uptide probe sandbox: ' + what + ' is not allowed');
    // @ts-ignore
    err.code = 'ERR_UPTIDE_SANDBOX';
    throw err;
  };
}

/** @param {any} obj @param {string} key @param {string} what */
function wall(obj, key, what) {
  if (obj == null) return;
  Object.defineProperty(obj, key, { value: refuse(what), writable: false, configurable: false, enumerable: false });
}

const net = require('net');
wall(net.Socket.prototype, 'connect', 'a network connection');
wall(net.Server.prototype, 'listen', 'a listening socket');
const dgram = require('dgram');
for (const m of ['bind', 'send', 'connect']) wall(dgram.Socket.prototype, m, 'a UDP socket');

const dns = require('dns');
const lookups = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa',
  'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv',
  'resolveTxt', 'reverse'];
for (const n of lookups) {
  for (const target of [dns, dns.promises, dns.Resolver && dns.Resolver.prototype, dns.promises && dns.promises.Resolver && dns.promises.Resolver.prototype]) {
    if (target && typeof target[n] === 'function') wall(target, n, 'a DNS lookup');
  }
}
for (const g of ['fetch', 'WebSocket', 'EventSource']) {
  if (g in globalThis) wall(globalThis, g, 'a network request (' + g + ')');
}
wall(process, 'kill', 'signalling a process');

// ES modules importing node:dns or node:net see the walls too.
require('module').syncBuiltinESMExports();
