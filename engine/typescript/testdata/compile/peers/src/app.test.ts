import { render, screen, waitFor } from 'peerkit';

render('x');
screen.getByText('x');
void waitFor(() => {});
