import './app/noEval';
import '@blueprintjs/core/lib/css/blueprint.css';
import './ui/theme.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { captureWindowErrors, rootErrorHandlers } from './app/errors';
import { activate } from './app/i18n';
import { isStandalone } from './app/routes';
import { preferencesActor, startShell } from './app/shell';
import { installIconLoader } from './ui/icons';

installIconLoader();
startShell(isStandalone(window.location.pathname));
captureWindowErrors();
void activate(preferencesActor.getSnapshot().context.language).then(() => {
  createRoot(document.getElementById('root') as HTMLElement, rootErrorHandlers).render(<App />);
});
