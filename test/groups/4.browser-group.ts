import { shareBrowser } from '../support/browser';
import { runSpecGroup } from '../support/spec-groups';

// One Chromium for the group's browser spec files (shareBrowser).
shareBrowser();
runSpecGroup(4, 4, 'browser');
