import { REQUIRED_NODE_MAJOR, unsupportedNodeReason } from './supported-node';

const withRawJson = { ...JSON, rawJSON: () => ({}), isRawJSON: () => false } as unknown as JSON;
const withoutRawJson = { parse: JSON.parse, stringify: JSON.stringify } as unknown as JSON;

describe('unsupportedNodeReason', () => {
  it('accepts the required major with JSON.rawJSON and JSON.isRawJSON', () => {
    expect(
      unsupportedNodeReason({ version: `v${REQUIRED_NODE_MAJOR}.0.0`, execPath: '/opt/node', json: withRawJson }),
    ).toBeUndefined();
    expect(unsupportedNodeReason({ version: 'v26.1.0', execPath: '/opt/node', json: withRawJson })).toBeUndefined();
  });

  it('refuses Node 20 in one line that names the required version, the binary and what is missing', () => {
    const reason = unsupportedNodeReason({ version: 'v20.20.2', execPath: '/usr/bin/node', json: withoutRawJson });
    expect(reason).toBe(
      `This platform needs Node.js ${REQUIRED_NODE_MAJOR} or later, but was started with Node.js v20.20.2 at /usr/bin/node ` +
        '(it lacks JSON.rawJSON and JSON.isRawJSON): run it through npm (npm start), or with node_modules/.bin/node.',
    );
    expect(reason).not.toContain('\n');
  });

  it('refuses an older major even when the features are there, and a new major without them', () => {
    expect(unsupportedNodeReason({ version: 'v22.12.0', execPath: '/usr/bin/node', json: withRawJson })).toMatch(
      /^This platform needs Node\.js 24 or later, but was started with Node\.js v22\.12\.0 at \/usr\/bin\/node: /,
    );
    expect(unsupportedNodeReason({ version: 'v24.0.0', execPath: '/opt/node', json: withoutRawJson })).toContain(
      '(it lacks JSON.rawJSON and JSON.isRawJSON)',
    );
  });
});
