/**
 * The read-only BPMN viewer and its styles, one lazy chunk: only ProcessDiagram imports it, with `import()`, so
 * bpmn-js never enters the login or shell bundle.
 */
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';

export { default as NavigatedViewer } from 'bpmn-js/lib/NavigatedViewer';
