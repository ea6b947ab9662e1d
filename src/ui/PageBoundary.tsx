import { Button, NonIdealState } from '@blueprintjs/core';
import { Trans } from '@lingui/react/macro';
import { Component, type ReactNode } from 'react';
import { retryFailedChunks } from '../app/lazyPage';

interface State {
  error?: Error;
}

/** Drawn inline: when chunks cannot load, an icon fetched as its own chunk could not load either. */
function ErrorIcon() {
  return (
    <svg className="vg-boundary-icon" width="48" height="48" viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="11" fill="currentColor" />
      <rect x="11" y="5.5" width="2" height="8.5" rx="1" fill="#fff" />
      <circle cx="12" cy="17.5" r="1.3" fill="#fff" />
    </svg>
  );
}

/**
 * Keeps the shell alive when a page throws or its chunk fails to load (ChunkLoadError). The error itself reaches
 * the local error log through the root's onCaughtError. 重试 clears the error: the page renders again and
 * lazyPage imports its chunk again.
 */
export class PageBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  private readonly retry = () => {
    retryFailedChunks();
    this.setState({ error: undefined });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error.name === 'ChunkLoadError';
    return (
      <NonIdealState
        className="vg-page-boundary"
        icon={<ErrorIcon />}
        title={chunk ? <Trans>页面加载失败</Trans> : <Trans>页面出错了</Trans>}
        description={chunk ? <Trans>无法从服务器取得页面，可能是网络中断或服务器暂时不可用。请稍后重试。</Trans> : error.message}
        action={
          <Button intent="primary" className="vg-boundary-retry" onClick={this.retry}>
            <Trans>重试</Trans>
          </Button>
        }
      />
    );
  }
}
