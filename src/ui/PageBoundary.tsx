import { Button, NonIdealState } from '@blueprintjs/core';
import { Trans } from '@lingui/react/macro';
import { Component, type ReactNode } from 'react';

interface State {
  error?: Error;
}

/**
 * Keeps the shell alive when a page throws or its chunk fails to load (ChunkLoadError). The error itself reaches
 * the local error log through the root's onCaughtError.
 */
export class PageBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error.name === 'ChunkLoadError';
    return (
      <NonIdealState
        icon="error"
        title={chunk ? <Trans>页面加载失败</Trans> : <Trans>页面出错了</Trans>}
        description={error.message}
        action={chunk ? <Button intent="primary" onClick={() => window.location.reload()}><Trans>刷新重试</Trans></Button> : undefined}
      />
    );
  }
}
