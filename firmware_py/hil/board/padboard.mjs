// The padboard on an emulated RP2040 (rp2040js), for tests/board/: boots the MicroPython
// image with a littlefs image of the board's files, serves its USB-CDC on a TCP port
// (pyserial's socket://127.0.0.1:PORT, as the cabinet reads /dev/ringside-padboard) and
// takes control lines (JSON) on PORT+1: ADC waveforms per pad at emulated times, GPIO
// levels, hold (the clock stands still), unplug/replug (the clock runs on while unplugged), the emulated clock.  Written for this project from rp2040js's
// API; ../shared/tools/rp2040/ has the examples it learnt from.
//
//   node padboard.mjs FIRMWARE.bin BOOTROM.json FS.img PORT CLOCKFILE [--bootsel] [--noise=SIGMA]
//
// CLOCKFILE gets the emulated time (ns, a float64 written twice) after every slice of
// execution, so the host can read the emulated clock without a round trip: the
// cabinet's driver runs on it (emulated time runs at about 0.4x wall time, far outside
// the ±300 ppm a clock sync accepts).
//
// Two models are corrected here, each to the RP2040 datasheet:
// - UART (rp2040js re-raises the TX interrupt on every check, which live-locks
//   MicroPython's UART IRQ handler): TXIS is set after a write to UARTDR and cleared by
//   UARTICR; the TX FIFO drains at once.
// - ADC round robin (2.1.? "ADC", CS.RROBIN): rp2040js's AINSEL setter masks the channel
//   with the field's shift (12) instead of its 3-bit mask, so channels 1-3 read as 0
//   and a round robin never leaves channel 0.  Set here as the datasheet says.
// - BOOTSEL (QSPI_SS's input): read as released unless --bootsel / replug {bootsel}.
// - USB OUT (rp2040js's CDC host completes every OUT transfer the board arms at once,
//   empty if the host has nothing, as no USB host does): the arming waits for host bytes.
// - Board bytes reach the host only after the clock file says the slice that wrote them ran.
// The ADC's FIFO, its DREQ and the DMA (ring wrap, chaining, the AL1 trigger alias) are
// rp2040js's own; the ADC takes its input from the waveform queue at the instant a
// conversion starts (its sample and hold), in 12-bit counts.  Between waveforms a pad
// reads mid-rail plus Gaussian noise of SIGMA counts (--noise, seeded, so a run repeats):
// a piezo's front end is never silent, and calibration's noise floor measures it.
import fs from 'fs';
import net from 'net';
import { Simulator, USBCDC, LogLevel, ConsoleLogger } from 'rp2040js';

const [fwPath, romPath, fsPath, portArg, clockPath, ...flags] = process.argv.slice(2);
const PORT = +portArg;
const MID = 2048; // 12-bit mid-rail: the pads' bias when no waveform is queued
const CYCLE_NS = 8; // 125 MHz
const SLICE = 20000; // instructions between looks at the sockets (~0.2 ms emulated)
const clockFd = fs.openSync(clockPath, 'w');
const clockBuf = Buffer.alloc(16);
const firmware = fs.readFileSync(fwPath);
const bootrom = Uint32Array.from(JSON.parse(fs.readFileSync(romPath)));
const fsImage = fs.readFileSync(fsPath);
let bootsel = flags.includes('--bootsel');
const NOISE = +(flags.find((f) => f.startsWith('--noise='))?.slice(8) ?? 0);
let seed = 0x32e5eed; // mulberry32: the rest noise is the same every run
function uniform() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function restValue() {
  if (!NOISE) return MID;
  const g = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform()); // Box-Muller
  return Math.min(4095, Math.max(0, Math.round(MID + g * NOISE)));
}

const waves = [[], [], [], []]; // per ADC channel: {t0, dt, v: Int16Array|Array} in time order
let sim = null, mcu = null, cdc = null, plugged = false, bootNs = 0, cycles = 0;
let serialClient = null;
const pendingOut = [];
// What the board wrote goes to the host after the clock is written, and the slice ends
// there: a host reading the emulated clock when the bytes come in stamps them when they
// were sent (they arrived up to a slice ahead of the clock, and the clock sync's pongs
// seemed to come back faster than they did: issue 32)
const sliceOut = [];
let toBoard = []; // host bytes not yet taken: rp2040js's CDC FIFO (512) drops what overflows it,
// where a real USB host waits for the device to take the next packet
let outArmed = null; // the OUT transfer the board armed while the host had nothing to send
function feedBoard() {
  let n = 0;
  while (n < toBoard.length && !cdc.txFIFO.full) cdc.sendSerialByte(toBoard[n++]);
  if (n) toBoard = toBoard.slice(n);
  if (n && outArmed) { const take = outArmed; outArmed = null; take(); }
}

function waveValue(ch, ns) {
  const q = waves[ch];
  while (q.length && q[0].t0 + q[0].dt * q[0].v.length <= ns) q.shift(); // wholly past
  if (!q.length || q[0].t0 > ns) return restValue();
  const seg = q[0];
  return seg.v[Math.floor((ns - seg.t0) / seg.dt)];
}

function fixUart(uart) {
  uart.checkInterrupts = function () {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const write = uart.writeUint32.bind(uart);
  uart.writeUint32 = function (offset, value) {
    write(offset, value);
    if (offset === 0) { // UARTDR: the byte leaves at once, so TX has room again
      this.interruptStatus |= 1 << 5;
      this.checkInterrupts();
    }
  };
}

function fixAdc(adc) {
  Object.defineProperty(adc, 'activeChannel', {
    get() { return (this.cs >> 12) & 0x7; },
    set(ch) { this.cs = (this.cs & ~(0x7 << 12)) | ((ch & 0x7) << 12); },
  });
  adc.onADCRead = (ch) => {
    adc.currentChannel = ch;
    adc.channelValues[ch] = waveValue(ch, sim.clock.nanos);
    adc.sampleAlarm.schedule(adc.sampleTime * 1000);
  };
}

function boot() {
  // a fresh chip on the same clock: a replugged board restarts from its flash, time goes on
  const clock = sim ? sim.clock : undefined;
  if (clock) clock.nextAlarm = null; // the unplugged chip's timers and DMA die with it
  sim = clock ? new Simulator(clock) : new Simulator();
  mcu = sim.rp2040;
  mcu.loadBootrom(bootrom);
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.flash.set(firmware, 0);
  mcu.flash.set(fsImage, 0xa0000);
  mcu.uart.forEach(fixUart);
  fixAdc(mcu.adc);
  // BOOTSEL pulls QSPI_SS low while pressed; rp2040js reads that pin's input as its pad's
  // input enable, which nothing sets for the QSPI bank, so the button would read pressed
  const pressed = bootsel;
  Object.defineProperty(mcu.qspi[1], 'inputValue', { get: () => !pressed });
  for (let pin = 0; pin < 30; pin++) if (pin < 26) mcu.gpio[pin].setInputValue(true); // pull-ups read high
  const thisCdc = new USBCDC(mcu.usbCtrl);
  cdc = thisCdc;
  cdc.onDeviceConnected = () => { plugged = true; log(`CDC up at ${(sim.clock.nanos / 1e6).toFixed(1)} ms`); };
  cdc.onSerialData = (buf) => {
    if (thisCdc !== cdc) return;
    if (serialClient) sliceOut.push(Buffer.from(buf));
    else pendingOut.push(Buffer.from(buf));
  };
  // A USB host sends an OUT packet only when it has data: the device's armed endpoint
  // waits meanwhile.  rp2040js's CDC host answers every arming at once, with zero bytes if
  // it has none, and TinyUSB re-arms: a USB interrupt and a USB task every ~35 µs on the
  // board, and host bytes waiting behind them.  Here the arming waits for host bytes.
  const cdcRead = mcu.usbCtrl.onEndpointRead;
  outArmed = null;
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep !== thisCdc.outEndpoint || !thisCdc.txFIFO.empty) cdcRead(ep, size);
    else outArmed = () => { if (thisCdc === cdc) cdcRead(ep, size); };
  };
  bootNs = sim.clock.nanos;
  mcu.core.PC = 0x10000000;
  plugged = false;
}

function log(msg) { process.stderr.write(`[padboard] ${msg}\n`); }

// Emulated time never runs ahead of half the wall time: an idle chip sleeps from alarm to
// alarm and its clock would race (since the USB OUT model stopped the ~35 µs interrupts),
// and the host's margins (a waveform queued 0.3 s ahead) assume a board slower than it.
const MAX_RATE = 0.5;
let paceWall = performance.now(), paceNs = 0;
function pace(ns) { // ms to wait before the next slice
  const ahead = (ns - paceNs) / 1e6 - (performance.now() - paceWall) * MAX_RATE;
  if (ahead < -50) { paceWall = performance.now(); paceNs = ns; } // slow meanwhile: no credit
  return ahead > 1 ? Math.ceil(ahead / MAX_RATE) : 0;
}
const UNPLUGGED_NS = 200000; // emulated time per 1 ms wall tick while unplugged (~0.2x, as when running)
let unplugged = false;
let held = false; // {op: 'hold', on}: the clock stands still while the host samples a waveform
function run() {
  if (held) { setTimeout(run, 1); return; }
  // the emulator's own step loop, so cycles are counted and control lines get a turn
  const clock = sim.clock;
  if (unplugged) {
    // no chip to run, but time goes on (the host's scenario waits on this clock)
    clock.tick(UNPLUGGED_NS);
  } else {
    for (let i = 0; i < SLICE && !sliceOut.length; i++) { // a slice ends where the board wrote
      if (mcu.core.waiting) {
        const ns = clock.nanosToNextAlarm;
        clock.tick(ns);
        i += ns / CYCLE_NS;
      } else {
        const c = mcu.core.executeInstruction();
        cycles += c;
        clock.tick(c * CYCLE_NS);
      }
    }
    feedBoard();
  }
  clockBuf.writeDoubleLE(clock.nanos, 0);
  clockBuf.writeDoubleLE(clock.nanos, 8);
  fs.writeSync(clockFd, clockBuf, 0, 16, 0);
  if (sliceOut.length) {
    if (serialClient) for (const b of sliceOut) serialClient.write(b);
    sliceOut.length = 0;
  }
  const wait = pace(clock.nanos);
  if (unplugged || wait) setTimeout(run, unplugged ? 1 : wait);
  else setImmediate(run);
}

function control(socket, line) {
  const cmd = JSON.parse(line);
  const reply = { op: cmd.op, now_ns: sim.clock.nanos };
  if (cmd.op === 'adc') { // {ch, t0_ns, dt_ns, v: [12-bit...]}
    const q = waves[cmd.ch];
    const last = q[q.length - 1];
    if (last && cmd.t0_ns < last.t0 + last.dt * last.v.length) reply.error = 'overlaps the queued waveform';
    else if (cmd.t0_ns < sim.clock.nanos) reply.error = 'in the past';
    else q.push({ t0: cmd.t0_ns, dt: cmd.dt_ns, v: cmd.v });
  } else if (cmd.op === 'gpio') { // {pin, t_ns, value}
    const pin = cmd.pin, value = !!cmd.value;
    const alarm = sim.clock.createAlarm(() => mcu.gpio[pin].setInputValue(value));
    alarm.schedule(Math.max(0, cmd.t_ns - sim.clock.nanos));
  } else if (cmd.op === 'hold') {
    held = !!cmd.on;
  } else if (cmd.op === 'unplug') {
    if (!unplugged) sim.clock.nextAlarm = null; // the chip's timers, ADC and DMA stop with its power
    unplugged = true;
    plugged = false;
    if (serialClient) serialClient.destroy();
    serialClient = null;
    pendingOut.length = 0;
    sliceOut.length = 0;
    toBoard = [];
  } else if (cmd.op === 'replug') {
    bootsel = !!cmd.bootsel;
    boot();
    unplugged = false;
  }
  reply.boot_ns = bootNs;
  reply.cycles = cycles;
  reply.plugged = plugged;
  socket.write(JSON.stringify(reply) + '\n');
}

boot();
net.createServer((s) => {
  if (unplugged || serialClient) { s.destroy(); return; } // unplugged, or the port is taken
  serialClient = s;
  for (const b of pendingOut.splice(0)) s.write(b);
  s.on('data', (d) => { if (serialClient === s) { for (const b of d) toBoard.push(b); feedBoard(); } });
  s.on('close', () => { if (serialClient === s) { serialClient = null; toBoard = []; } }); // closing a port drops what it had not sent
  s.on('error', () => {});
}).listen(PORT, '127.0.0.1');
net.createServer((s) => {
  let buf = '';
  s.on('data', (d) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); if (line.trim()) control(s, line); }
  });
  s.on('error', () => {});
}).listen(PORT + 1, '127.0.0.1', () => log(`serial on socket://127.0.0.1:${PORT}, control on ${PORT + 1}`));
setImmediate(run);
