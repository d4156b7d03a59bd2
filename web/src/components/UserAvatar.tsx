import { initials, type User } from '../session/user';

interface UserAvatarProps {
  user: Pick<User, 'firstName' | 'lastName' | 'profileImageUrl'>;
  size?: number;
  /** Profile page: always initials, never the picture. */
  initialsOnly?: boolean;
}

/** Profile image when there is one, else the initials of first and last name. */
export function UserAvatar({ user, size = 36, initialsOnly = false }: UserAvatarProps) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (user.profileImageUrl && !initialsOnly) {
    return (
      <img
        src={user.profileImageUrl}
        alt=""
        className="rounded-circle object-fit-cover"
        style={style}
        referrerPolicy="no-referrer"
      />
    );
  }
  return (
    <span
      className="rounded-circle bg-primary text-white d-inline-flex align-items-center justify-content-center fw-semibold"
      style={style}
      aria-hidden="true"
      data-testid="avatar-initials"
    >
      {initials(user)}
    </span>
  );
}
