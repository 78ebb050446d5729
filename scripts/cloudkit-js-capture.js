#!/usr/bin/env node
// Drives Apple's CloudKit JS (2.6.4, unmodified) through its public API against `larder serve`, records
// every HTTP request it sends and every answer, and checks each call the way a web app or a Node server
// would use its result (issue 30, part 1).
//
//   node scripts/cloudkit-js-capture.js [--lib PATH] [--larder PATH] [--out FIXTURE] [--date YYYY-MM-DD]
//
// --lib     cloudkit.js (default: $LARDER_CLOUDKIT_JS, else /tmp/cloudkit-js/cloudkit.js). Apple's file is
//           not part of this repository: it is loaded from where you put it, unmodified.
// --larder  the larder binary (default: .build/debug/larder); the driver starts `larder serve --in-memory
//           --port 0` with its own config (the users and keys of Tests/LarderEmulatorTests/TestServer.swift).
// --out     write the captured requests and answers as a fixture (the format CloudKitJSReplayTests reads).
//
// The only change to the library's traffic: requests to https://api.apple-cloudkit.com are sent to the
// emulator's URL instead (services.fetch is CloudKit JS's own hook for Node). Anything else the library
// tries to reach (its stats endpoint) is refused and reported. `document` is stubbed with a page that has
// no sign-in button element, because the API-token auth looks for the button in the page on setUpAuth().
// Prints one line per call and closes with "N passed, M failed"; exits 1 when any call fails.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const APPLE = 'https://api.apple-cloudkit.com';
const CONTAINER = 'iCloud.com.example.tests';
const API_TOKEN = '0123456789abcdef'.repeat(4);
const ALICE = { userRecordName: '_a11ce', webAuthToken: 'alice+token/with=chars', emailAddress: 'alice@example.com', firstName: 'Alice', lastName: 'Example' };
const BOB = { userRecordName: '_b0b', webAuthToken: 'bob+token/with=chars', emailAddress: 'bob@example.com', firstName: 'Bob', lastName: 'Example' };
const KEY_ID = 'a1b2c3d4'.repeat(8);
const CLIENT_ID = '3b6e6d42-5b1e-4a63-9b5e-0d4b1f2a7c11';
const UNKNOWN_TOKEN = 'expired+web/auth=token';
// ASCII on purpose: in Node, CloudKit JS uploads an asset Buffer as buffer.toString() (UTF-8), so binary
// bytes (a PNG's 0x89) arrive mangled whatever the server does; a browser Blob is sent as is.
const PHOTO = Buffer.from('GIF89a ckjs asset bytes '.repeat(3), 'ascii');

function parseArguments(argv) {
  const options = {
    lib: process.env.LARDER_CLOUDKIT_JS || '/tmp/cloudkit-js/cloudkit.js',
    larder: [path.join(__dirname, '..', '.build', 'debug', 'larder'),
      path.join(__dirname, '..', '.build', `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-gnu`, 'debug', 'larder')]
      .find((candidate) => fs.existsSync(candidate)) || path.join(__dirname, '..', '.build', 'debug', 'larder'),
    out: null,
    date: new Date().toISOString().slice(0, 10),
  };
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in options) || i + 1 >= argv.length) {
      console.error(`cloudkit-js-capture: unknown or incomplete option ${argv[i]}`);
      process.exit(2);
    }
    options[name] = argv[i + 1];
    i += 1;
  }
  return options;
}

async function startEmulator(larder, directory) {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'sec1', format: 'pem' },
  });
  const keyFile = path.join(directory, 'eckey.pem');
  fs.writeFileSync(keyFile, privateKey, { mode: 0o600 });
  const configFile = path.join(directory, 'emulator.json');
  fs.writeFileSync(configFile, JSON.stringify({
    containers: [CONTAINER],
    apiTokens: [API_TOKEN],
    users: [ALICE, BOB],
    serverKeys: [{ keyID: KEY_ID, publicKeyPEM: publicKey, userRecordName: ALICE.userRecordName }],
  }), { mode: 0o600 });
  const child = spawn(larder, ['serve', '--in-memory', '--port', '0', '--config', configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const base = await new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`larder serve printed no URL in 60 s\n${stderr}`)), 60000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(stdout.slice(0, newline).trim().replace(/\/$/, ''));
      }
    });
    child.on('exit', (code) => reject(new Error(`larder serve exited (${code})\n${stderr}`)));
  });
  return { child, base, keyFile };
}

function main() {
  const options = parseArguments(process.argv.slice(2));
  if (!fs.existsSync(options.lib)) {
    console.error(`cloudkit-js-capture: no CloudKit JS at ${options.lib} (set --lib or LARDER_CLOUDKIT_JS)`);
    process.exit(2);
  }
  if (!fs.existsSync(options.larder)) {
    console.error(`cloudkit-js-capture: no larder binary at ${options.larder} (swift build, or --larder)`);
    process.exit(2);
  }
  const libraryBytes = fs.readFileSync(options.lib);
  const librarySHA = crypto.createHash('sha256').update(libraryBytes).digest('hex');
  const CloudKit = require(path.resolve(options.lib));
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ckjs-capture-'));
  run(CloudKit, options, directory, librarySHA).then(
    (failed) => process.exit(failed > 0 ? 1 : 0),
    (error) => { console.error(`cloudkit-js-capture: ${error.stack || error}`); process.exit(3); });
}

async function run(CloudKit, options, directory, librarySHA) {
  const emulator = await startEmulator(options.larder, directory);
  const exchanges = [];
  const calls = [];
  let current = null;

  // CloudKit JS's fetch hook: the same request, sent to the emulator instead of Apple's host.
  async function capturingFetch(url, init = {}) {
    const method = (init.method || 'GET').toUpperCase();
    let target = url;
    if (url.startsWith(APPLE)) target = emulator.base + url.slice(APPLE.length);
    else if (!url.startsWith(emulator.base)) {
      exchanges.push({ call: current, method, path: url, headers: {}, blocked: true });
      throw new TypeError(`refused: CloudKit JS tried to reach ${url}`);
    }
    const headers = Object.assign({}, init.headers || {});
    const exchange = { call: current, method, path: target.slice(emulator.base.length), headers, body: init.body };
    exchanges.push(exchange);
    const answer = await fetch(target, { method, headers, body: init.body });
    const bytes = Buffer.from(await answer.arrayBuffer());
    exchange.status = answer.status;
    exchange.answer = bytes;
    exchange.contentType = answer.headers.get('content-type') || '';
    exchange.webAuthToken = answer.headers.get('x-apple-cloudkit-web-auth-token');
    return new Response(bytes.length > 0 ? bytes : null, { status: answer.status, headers: answer.headers });
  }

  // The browser loading an <img src> (not CloudKit JS): recorded the same way.
  async function browserGet(url) {
    const exchange = { call: current, method: 'GET', path: url.slice(emulator.base.length), headers: {}, browser: true };
    exchanges.push(exchange);
    const answer = await fetch(url);
    exchange.status = answer.status;
    exchange.answer = Buffer.from(await answer.arrayBuffer());
    exchange.contentType = answer.headers.get('content-type') || '';
    return exchange;
  }

  global.document = { querySelector: () => null };
  CloudKit.configure({
    services: { fetch: capturingFetch },
    containers: [
      { containerIdentifier: CONTAINER, environment: 'development', clientID: CLIENT_ID,
        apiTokenAuth: { apiToken: API_TOKEN, ckWebAuthToken: ALICE.webAuthToken } },
      { containerIdentifier: CONTAINER, environment: 'development', clientID: CLIENT_ID,
        apiTokenAuth: { apiToken: API_TOKEN, ckWebAuthToken: UNKNOWN_TOKEN } },
      { containerIdentifier: CONTAINER, environment: 'development', clientID: CLIENT_ID,
        apiTokenAuth: { apiToken: API_TOKEN } },
      { containerIdentifier: CONTAINER, environment: 'development', clientID: CLIENT_ID,
        serverToServerKeyAuth: { keyID: KEY_ID, privateKeyFile: emulator.keyFile } },
    ],
  });
  const [web, unknownToken, apiOnly, server] = CloudKit.getAllContainers();

  async function call(id, title, body, check) {
    current = id;
    const entry = { id, title, pass: false, detail: '' };
    calls.push(entry);
    try {
      const result = await body();
      const problem = check(result);
      entry.pass = !problem;
      entry.detail = problem || 'ok';
    } catch (error) {
      entry.detail = `threw ${error && (error.ckErrorCode || error.name)}: ${error && (error.reason || error.message)}`;
    }
    console.log(`${entry.pass ? 'pass' : 'FAIL'} ${id} ${title}: ${entry.detail}`);
    return entry;
  }
  const noErrors = (response) => (response.hasErrors ? `errors ${JSON.stringify(response.errors.map((e) => e.ckErrorCode + ' ' + e.reason))}` : null);
  const names = (records) => records.map((r) => r.recordName).join(',');

  // --- API token + web-auth token (a signed-in web app), private database ---
  const privateDB = web.privateCloudDatabase;
  await call('W1', 'setUpAuth() resolves to the signed-in user', () => web.setUpAuth(),
    (identity) => (identity && identity.userRecordName === ALICE.userRecordName ? null : `resolved ${JSON.stringify(identity)}`));
  await call('W2', 'fetchCurrentUserIdentity() has userRecordName, lookupInfo, nameComponents', () => web.fetchCurrentUserIdentity(),
    (identity) => (identity && identity.userRecordName === ALICE.userRecordName && identity.nameComponents && identity.lookupInfo
      ? null : `resolved ${JSON.stringify(identity)}`));
  await call('W3', 'saveRecordZones("ckjs-zone")', () => privateDB.saveRecordZones({ zoneName: 'ckjs-zone' }),
    (r) => noErrors(r) || (r.zones[0] && r.zones[0].zoneID.zoneName === 'ckjs-zone' ? null : 'no zone'));
  await call('W4', 'fetchAllRecordZones()', () => privateDB.fetchAllRecordZones(),
    (r) => noErrors(r) || (r.zones.map((z) => z.zoneID.zoneName).includes('ckjs-zone') ? null : 'ckjs-zone missing'));
  await call('W5', 'fetchRecordZones("ckjs-zone")', () => privateDB.fetchRecordZones('ckjs-zone'),
    (r) => noErrors(r) || (r.zones.length === 1 ? null : 'not one zone'));
  await call('W6', 'saveRecords(three Notes)', () => privateDB.saveRecords([1, 2, 3].map((n) => ({
    recordType: 'Note', recordName: `note-${n}`, fields: { title: { value: `Note ${n}` }, n: { value: n } },
  }))), (r) => noErrors(r) || (names(r.records) === 'note-1,note-2,note-3' ? null : `saved ${names(r.records)}`));
  await call('W7', 'fetchRecords(["note-1", "note-2"])', () => privateDB.fetchRecords(['note-1', 'note-2']),
    (r) => noErrors(r) || (names(r.records) === 'note-1,note-2' ? null : `fetched ${names(r.records)}`));
  let page = null;
  await call('W8', 'performQuery(Note by n, resultsLimit 1)', async () => {
    page = await privateDB.performQuery({ recordType: 'Note', sortBy: [{ fieldName: 'n' }] }, { resultsLimit: 1 });
    return page;
  }, (r) => noErrors(r) || (names(r.records) === 'note-1' && r.moreComing ? null : `page ${names(r.records)} moreComing ${r.moreComing}`));
  await call('W9', 'performQuery(previousResponse): the next page', async () => {
    page = await privateDB.performQuery(page);
    return page;
  }, (r) => noErrors(r) || (names(r.records) === 'note-2' ? null : `page ${names(r.records)}`));
  await call('W10', 'performQuery(previousResponse): the last page', () => privateDB.performQuery(page),
    (r) => noErrors(r) || (names(r.records) === 'note-3' ? null : `page ${names(r.records)}`));
  await call('W11', 'deleteRecords("note-3")', () => privateDB.deleteRecords(['note-3']),
    (r) => noErrors(r) || (r.records[0] && r.records[0].deleted ? null : `answered ${JSON.stringify(r.records)}`));
  await call('W12', 'saveSubscriptions(query subscription)', () => privateDB.saveSubscriptions({
    subscriptionID: 'ckjs-query', subscriptionType: CloudKit.SubscriptionType.QUERY,
    query: { recordType: 'Note' }, firesOn: ['create', 'update'],
  }), (r) => noErrors(r) || (r.subscriptions.length === 1 ? null : 'no subscription'));
  await call('W13', 'saveSubscriptions(SubscriptionType.DATABASE)', () => privateDB.saveSubscriptions({
    subscriptionID: 'ckjs-database', subscriptionType: CloudKit.SubscriptionType.DATABASE,
  }), (r) => noErrors(r) || (r.subscriptions.length === 1 ? null : 'no subscription'));
  await call('W14', 'fetchAllSubscriptions()', () => privateDB.fetchAllSubscriptions(),
    (r) => noErrors(r) || (r.subscriptions.length === 2 ? null : `${r.subscriptions.length} subscriptions`));
  await call('W15', 'deleteSubscriptions("ckjs-database")', () => privateDB.deleteSubscriptions('ckjs-database'),
    (r) => noErrors(r));
  await call('W16', 'deleteRecordZones("ckjs-zone")', () => privateDB.deleteRecordZones('ckjs-zone'),
    (r) => noErrors(r));
  await call('W17', 'registerForNotifications(): /device/1/…/tokens/create, then the webcourier long poll', async () => {
    const container = await web.registerForNotifications();
    // CloudKit JS now parks a GET on webcourierURL; a 404 there makes it poll again and again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    web.unregisterForNotifications();
    const poll = exchanges.find((x) => x.call === 'W17' && x.path.startsWith('/_emulator/webcourier/'));
    return { container, poll };
  }, (r) => {
    if (r.container !== web || !web._apnsManager._devApnsConnector.hasApnsToken) return 'no APNs token consumed';
    if (!r.poll) return 'CloudKit JS parked no poll on webcourierURL';
    if (r.poll.status !== undefined && r.poll.status !== 200) return `the webcourier poll answered ${r.poll.status}`;
    return null;
  });
  let photoRecord = null;
  await call('W18', 'saveRecords(a record with an asset: assets/upload, the upload, records/modify)', () => privateDB.saveRecords({
    recordType: 'Photo', recordName: 'photo-1', fields: { title: { value: 'Photo' }, image: { value: PHOTO } },
  }), (r) => noErrors(r) || (r.records[0] && r.records[0].fields.image ? null : 'no asset field'));
  await call('W19', 'fetchRecords("photo-1"): the asset has a downloadURL', async () => {
    const r = await privateDB.fetchRecords('photo-1');
    photoRecord = r.records[0];
    return r;
  }, (r) => noErrors(r) || (photoRecord && photoRecord.fields.image.value.downloadURL ? null : 'no downloadURL'));
  await call('W20', '<img src=downloadURL>: the browser loads it without credentials', async () => {
    const url = photoRecord.fields.image.value.downloadURL.replace('${f}', 'photo.png');
    return browserGet(url);
  }, (x) => (x.status === 200 && x.answer.equals(PHOTO) ? null : `HTTP ${x.status} ${x.answer.length} bytes`));

  // --- an unknown (or expired) web-auth token: the app must be asked to sign in again ---
  await call('X1', 'setUpAuth() with an unknown web-auth token resolves to null (sign-in button shown)', async () => {
    const identity = await unknownToken.setUpAuth();
    return { identity, signInURL: unknownToken._auth._signInURL };
  }, (r) => (r.identity === null && r.signInURL ? null : `resolved ${JSON.stringify(r.identity)} signInURL ${r.signInURL}`));

  // --- API token only: the public database, read-only ---
  await call('A1', 'setUpAuth() without a web-auth token resolves to null with a sign-in URL', async () => {
    const identity = await apiOnly.setUpAuth();
    return { identity, signInURL: apiOnly._auth._signInURL };
  }, (r) => (r.identity === null && r.signInURL ? null : `resolved ${JSON.stringify(r.identity)} signInURL ${r.signInURL}`));
  await call('A2', 'public performQuery(Note) with the API token only', () => apiOnly.publicCloudDatabase.performQuery({ recordType: 'Note' }),
    (r) => noErrors(r));

  // --- server-to-server (a Node server signing with its key), public database ---
  const publicDB = server.publicCloudDatabase;
  await call('S1', 'setUpAuth() (signed users/caller) resolves to the key\'s user', () => server.setUpAuth(),
    (identity) => (identity && identity.userRecordName === ALICE.userRecordName ? null : `resolved ${JSON.stringify(identity)}`));
  await call('S2', 'signed saveRecords(two public Notes)', () => publicDB.saveRecords([1, 2].map((n) => ({
    recordType: 'Note', recordName: `pub-${n}`, fields: { title: { value: `Public ${n}` }, n: { value: n } },
  }))), (r) => noErrors(r) || (names(r.records) === 'pub-1,pub-2' ? null : `saved ${names(r.records)}`));
  await call('S3', 'signed fetchRecords("pub-1")', () => publicDB.fetchRecords('pub-1'),
    (r) => noErrors(r) || (names(r.records) === 'pub-1' ? null : `fetched ${names(r.records)}`));
  await call('S4', 'signed performQuery(resultsLimit 1)', async () => {
    page = await publicDB.performQuery({ recordType: 'Note', sortBy: [{ fieldName: 'n' }] }, { resultsLimit: 1 });
    return page;
  }, (r) => noErrors(r) || (names(r.records) === 'pub-1' && r.moreComing ? null : `page ${names(r.records)}`));
  await call('S5', 'signed performQuery(previousResponse)', () => publicDB.performQuery(page),
    (r) => noErrors(r) || (names(r.records) === 'pub-2' ? null : `page ${names(r.records)}`));
  await call('S6', 'signed fetchAllRecordZones()', () => publicDB.fetchAllRecordZones(),
    (r) => noErrors(r) || (r.zones.length >= 1 ? null : 'no zones'));
  await call('S7', 'signed fetchAllSubscriptions()', () => publicDB.fetchAllSubscriptions(), (r) => noErrors(r));
  await call('S8', 'signed deleteRecords(["pub-1", "pub-2"])', () => publicDB.deleteRecords(['pub-1', 'pub-2']),
    (r) => noErrors(r) || (r.records.every((x) => x.deleted) ? null : 'not deleted'));

  current = null;
  await new Promise((resolve) => {
    const timer = setTimeout(() => { emulator.child.kill('SIGKILL'); resolve(); }, 3000);
    emulator.child.on('exit', () => { clearTimeout(timer); resolve(); });
    emulator.child.kill('SIGTERM');
  });
  const passed = calls.filter((c) => c.pass).length;
  const failed = calls.length - passed;
  const blocked = exchanges.filter((x) => x.blocked);
  for (const x of blocked) console.log(`note: refused a request to ${x.path}`);
  if (options.out) writeFixture(options, librarySHA, calls, exchanges);
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

function bodyLine(body) {
  if (body === undefined || body === null) return null;
  if (Buffer.isBuffer(body)) return `BODY-BASE64 ${body.toString('base64')}`;
  return `BODY ${body}`;
}

function answerLine(x) {
  if (!x.answer || x.answer.length === 0) return 'ANSWER';
  const text = x.answer.toString('utf8');
  if (x.contentType.startsWith('application/json')) {
    try { return `ANSWER ${JSON.stringify(JSON.parse(text))}`; } catch (error) { /* kept as sent */ }
  }
  if (/^[\x20-\x7e]*$/.test(text)) return `ANSWER ${text}`;
  return `ANSWER-BASE64 ${x.answer.toString('base64')}`;
}

function writeFixture(options, librarySHA, calls, exchanges) {
  const lines = [
    'CloudKit JS 2.6.4 wire captures: Apple\'s library, unmodified, driven through its public API in Node',
    '==========================================================================================',
    `Library: cloudkit.js 2.6.4 (build 2310ProjectDev27), sha256 ${librarySHA}; Apple's file, not in this repository.`,
    `Driver: scripts/cloudkit-js-capture.js, Node ${process.version}, run ${options.date} against \`larder serve --in-memory\`.`,
    'Only change: CloudKit JS\'s services.fetch sent https://api.apple-cloudkit.com/... to the emulator\'s loopback URL',
    '(same method, path, query string, headers and body bytes). Credentials are the test fixtures of',
    'Tests/LarderEmulatorTests/TestServer.swift (container, API token, Alice\'s web-auth token, key ID); the',
    'server-to-server key was generated for the run, so replays re-sign with their own key over the same',
    'date:bodyHash:path?query message. Web-auth tokens after the first request are the ones the emulator handed',
    'back (X-Apple-CloudKit-Web-Auth-Token), as CloudKit JS swaps them in; replays do the same.',
    'Format: "=== ID title | pass|FAIL" per call of the public API, then per HTTP request: REQUEST (or BROWSER',
    'for the page\'s own <img> load) METHOD PATH?QUERY, HEADER lines as CloudKit JS set them, BODY (text) or',
    'BODY-BASE64, STATUS, ANSWER-HEADER (the web-auth token handed back), ANSWER (JSON re-serialized on one',
    'line) or ANSWER-BASE64.',
    `Result of this run: ${calls.filter((c) => c.pass).length} of ${calls.length} calls pass.`,
    '',
  ];
  for (const c of calls) {
    lines.push(`=== ${c.id} ${c.title} | ${c.pass ? 'pass' : 'FAIL'}${c.pass ? '' : ` (${c.detail})`}`);
    for (const x of exchanges.filter((e) => e.call === c.id && !e.blocked)) {
      lines.push(`${x.browser ? 'BROWSER' : 'REQUEST'} ${x.method} ${x.path}`);
      for (const [name, value] of Object.entries(x.headers)) lines.push(`HEADER ${name}: ${value}`);
      const body = bodyLine(x.body);
      if (body) lines.push(body);
      if (x.status === undefined) {
        lines.push('STATUS pending (a long poll, still open when the run ended)');
        continue;
      }
      lines.push(`STATUS ${x.status}`);
      if (x.webAuthToken) lines.push(`ANSWER-HEADER X-Apple-CloudKit-Web-Auth-Token: ${x.webAuthToken}`);
      lines.push(answerLine(x));
    }
    lines.push('');
  }
  fs.writeFileSync(options.out, lines.join('\n'));
}

main();
