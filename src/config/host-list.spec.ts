import { parseHostList } from './host-list';

describe('parseHostList', () => {
  it.each<[string, string[]]>([
    ['', []],
    [' , ,', []],
    ['rpc.example.com', ['rpc.example.com']],
    [' RPC.Example.com , *.Infura.IO,,8.8.8.8 ', ['rpc.example.com', '*.infura.io', '8.8.8.8']],
  ])('%j -> %j', (value, hosts) => {
    expect(parseHostList(value)).toEqual(hosts);
  });
});
