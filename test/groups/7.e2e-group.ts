import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(7, 10);
