// Preloaded (`--require`) into every Windows Node that the Wine suite starts; never part of svc.
// Wine 8's Winsock refuses SO_KEEPALIVE on a socket that is still connecting, and libuv reports
// that as `UNKNOWN`, so every request undici makes fails ("could not be made: UNKNOWN"). Windows
// itself accepts the option before connect. The preload applies it once the socket connected.
const net = require('node:net');

const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function deferredKeepAlive(...args) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.apply(this, args));
    return this;
  }
  return setKeepAlive.apply(this, args);
};
