import { declarePermissions, knownGrants, PERMISSIONS } from './principal';

describe('declarePermissions (docs/reference/extension-events.md#16-permissions-of-added-modules)', () => {
  it('adds resource:action permissions once, after the service’s own and before *', () => {
    declarePermissions(['chat:send', 'chat:send', 'relayers:read', 'chat_log:read_all2']);
    expect(knownGrants()).toEqual([...PERMISSIONS, 'chat:send', 'chat_log:read_all2', '*']);
  });

  it.each(['chat', 'Chat:send', 'chat:send:now', '*', 'chat:', ':send', 'chat :send'])(
    'refuses %p, naming it and the form',
    (permission) => {
      expect(() => declarePermissions([permission])).toThrow(
        `permission '${permission}' must be resource:action, lower case (a-z, 0-9, _)`,
      );
    },
  );
});
