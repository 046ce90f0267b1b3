import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(6, 10);
