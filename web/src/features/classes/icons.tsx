// Small inline icons for the class cards (no icon font in the app).
interface IconProps {
  size?: number;
}

function Svg({ size = 16, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" fill="currentColor" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export function PencilIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M12.15.85a1.5 1.5 0 0 1 2.12 0l.88.88a1.5 1.5 0 0 1 0 2.12l-9.5 9.5-3.65.85.85-3.65 9.3-9.7zm-8.3 10.53-.38 1.62 1.62-.38 8.8-8.8-1.24-1.24-8.8 8.8z" />
    </Svg>
  );
}

export function ArchiveIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M1 2.5A1.5 1.5 0 0 1 2.5 1h11A1.5 1.5 0 0 1 15 2.5v1A1.5 1.5 0 0 1 14 4.9V13a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V4.9A1.5 1.5 0 0 1 1 3.5v-1zM3 5v8a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V5H3zm-.5-3a.5.5 0 0 0-.5.5v1a.5.5 0 0 0 .5.5h11a.5.5 0 0 0 .5-.5v-1a.5.5 0 0 0-.5-.5h-11zM5.5 7h5a.5.5 0 0 1 0 1h-5a.5.5 0 0 1 0-1z" />
    </Svg>
  );
}

export function RestoreIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M8 3a5 5 0 1 1-4.55 2.9.5.5 0 1 1 .9.43A4 4 0 1 0 8 4H6.5v1.8L3.8 3.5 6.5 1.2V3H8z" />
    </Svg>
  );
}

export function TrashIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M5.5 5.5A.5.5 0 0 1 6 6v6a.5.5 0 0 1-1 0V6a.5.5 0 0 1 .5-.5zm2.5 0a.5.5 0 0 1 .5.5v6a.5.5 0 0 1-1 0V6a.5.5 0 0 1 .5-.5zm3 .5a.5.5 0 0 0-1 0v6a.5.5 0 0 0 1 0V6z" />
      <path d="M14.5 3a1 1 0 0 1-1 1H13v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V4h-.5a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1H6a1 1 0 0 1 1-1h2a1 1 0 0 1 1 1h3.5a1 1 0 0 1 1 1v1zM4.12 4 4 4.06V13a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1V4.06L11.88 4H4.12zM2.5 3V2h11v1h-11z" />
    </Svg>
  );
}
